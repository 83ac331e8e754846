/**
 * A call's arguments as plain tool data, the first thing a tool call does with
 * what a program passed: shared by the tool host and the sandbox worker's own
 * answers to pure tools (`local/local-tools.ts`), so both refuse the same values.
 */
import { ToolError } from '../errors/tool-error.ts';
import { toToolValue, type ToolValue } from './tool-value.ts';

/** Copies the arguments as plain data; a non-data argument is `TOOL_ARGUMENT_INVALID`. */
export function copyArguments(toolName: string, values: readonly ToolValue[]): ToolValue[] {
  return values.map((value, index) => {
    try {
      return toToolValue(value);
    } catch (error) {
      throw new ToolError('TOOL_ARGUMENT_INVALID', `${toolName} argument ${index + 1}: ${(error as Error).message}`, { tool: toolName });
    }
  });
}
