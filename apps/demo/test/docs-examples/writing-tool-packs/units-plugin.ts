import { definePlugin, defineTool, defineToolPack, ToolError } from '@askloop/controller';

// A tool: its spec (name, arguments, return type, effect) and a handler.
const celsiusToFahrenheit = defineTool(
  {
    name: 'tool.units.CelsiusToFahrenheit',
    description: 'Converts degrees Celsius to degrees Fahrenheit.',
    args: [{ name: 'celsius', type: 'number', description: 'degrees Celsius' }],
    returns: 'number',
  },
  (args) => {
    const celsius = args['celsius'] as number;
    // A ToolError reaches the program (`on error`) and the model as one of the stable SCRIPT_TOOL_… codes
    // (TOOL_VALUE_INVALID → SCRIPT_TOOL_ARGUMENTS), its own code at the head of system_error_message:
    // "[TOOL_VALUE_INVALID] tool.units.CelsiusToFahrenheit: below absolute zero…". Any other error is TOOL_FAILED.
    if (celsius < -273.15) throw new ToolError('TOOL_VALUE_INVALID', 'below absolute zero (-273.15 °C)');
    return (celsius * 9) / 5 + 32;
  },
);

// A pack groups tools under one name; a plugin contributes packs (and agents that may use them).
// `pure`: each result comes from the arguments alone (no store, file, network or clock), so a turn re-run after a
// crash computes it again instead of reading it back from the journal of reads the first run made before a write.
export const unitsPack = defineToolPack('units', [celsiusToFahrenheit], { pure: true });

export default definePlugin({
  name: 'units',
  specificationVersion: 'v1',
  toolPacks: [unitsPack],
  agents: {
    thermometer: {
      name: 'thermometer',
      model: 'openai:gpt-4.1-mini',
      instructions: 'Convert the temperature in the task with tool.units.CelsiusToFahrenheit.',
      // Registered is not allowed: the agent's policy names the tools it may call.
      policy: { allow: ['tool.units.*', 'tool.str.*'] },
      ceilings: { maxTurns: 3 },
    },
  },
});
