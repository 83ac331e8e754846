/**
 * The one rule of what a tool (or the orchestrator) may hand a program:
 * plain JSON data, copied. Shared by the host's tool bridge and the sandbox
 * worker's own answers to pure tools (`sandbox/local-tool-answers.ts`).
 */
import type { JsonValue } from '../runtime/index.ts';
import { HostCallError } from './map-host-failure.ts';
import { copyPlainData, NotPlainDataError } from './plain-data.ts';

/**
 * Copies a tool's or the orchestrator's result into JSON data by the one rule
 * of what a tool may return (see {@link copyPlainData}). A tool's bad value is
 * the tool host's own `TOOL_RESULT_INVALID` (reference code 6), so a program
 * sees the same error whichever bridge its tools come through.
 */
export function toJsonData(value: unknown, what: string): JsonValue {
  try {
    return copyPlainData(value);
  } catch (error) {
    if (!(error instanceof NotPlainDataError)) throw error;
    if (error.reason === 'nested') throw new HostCallError({ code: 'SCRIPT_VALUE_TOO_LARGE', message: `${what} returned ${error.message}` });
    throw Object.assign(new Error(error.message), { code: 'TOOL_RESULT_INVALID', referenceCode: 6 });
  }
}
