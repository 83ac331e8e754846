/**
 * Runs the host's tool handler for one call from the isolate and encodes what
 * it produced as the JSON of a `ToolOutcome`. A failing tool is an outcome
 * the runtime turns into a script error, never a thrown host object.
 */
import type { ToolCallContext, ToolCallHandler } from './sandbox-types.ts';

/** Calls `handler` and returns `{"ok":true,"value":…}` or `{"ok":false,"error":{code,message}}` as JSON text. */
export async function toolOutcomeJson(handler: ToolCallHandler, name: string, argsJson: string, context: ToolCallContext): Promise<string> {
  try {
    const value: unknown = await handler(name, JSON.parse(argsJson), context);
    const json = JSON.stringify(value === undefined ? null : value);
    if (typeof json === 'string') return `{"ok":true,"value":${json}}`;
    return failure('TOOL_RESULT_NOT_JSON', `tool ${name} returned a ${typeof value}, not JSON data`);
  } catch (error) {
    // A result JSON cannot carry (BigInt, a cycle) lands here too.
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : String(error);
    // Named once: a message that names the tool already (the interpreter's handler always does) is kept as it is, and
    // so is one of the interpreter's own calls (`$ask`, `$promptuser`: not tools, and their messages say what failed).
    const named = name.startsWith('$') || message.toLowerCase().includes(name.toLowerCase()) ? message : `tool ${name} failed: ${message}`;
    return failure(typeof code === 'string' && code !== '' ? code : 'TOOL_FAILED', named);
  }
}

function failure(code: string, message: string): string {
  return JSON.stringify({ ok: false, error: { code, message } });
}
