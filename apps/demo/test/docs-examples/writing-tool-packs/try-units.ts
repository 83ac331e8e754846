import assert from 'node:assert/strict';
import { builtinPlugin, createAskLoop, createMemoryTranscriptStore, createScriptedProvider, definePlugin } from '@askloop/controller';
import unitsPlugin from './units-plugin.ts';

// The program a model would write, as one AEIOU v4 envelope (a scripted model answers with it).
const reply = `<<<NSENV:V4:START>>>
<<<NSENV:V4:USERDATA>>>
{}
<<<NSENV:V4:ACTIONS>>>
command
  set f = tool.units.CelsiusToFahrenheit(userdata["subject"])
  emit "<<<LOOP:DONE>>> " + userdata["subject"] + " °C is " + f + " °F"
endcommand
<<<NSENV:V4:END>>>
`;
const scripted = definePlugin({ name: 'test-model', specificationVersion: 'v1', providers: { scripted: createScriptedProvider({ models: { units: [reply] } }) } });

const loop = createAskLoop({ plugins: [builtinPlugin(), unitsPlugin, scripted], store: createMemoryTranscriptStore() });
try {
  const result = await loop.run({ agent: { ...unitsPlugin.agents.thermometer, model: 'scripted:units' }, task: '100' });
  assert.equal(result.status, 'DONE');
  assert.equal(result.result, '100 °C is 212 °F');
} finally {
  await loop.close();
}
