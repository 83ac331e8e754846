/**
 * Runs the host's tool handler for one call from the isolate and encodes what
 * it produced as the JSON of a `ToolOutcome`. A failing tool is an outcome
 * the runtime turns into a script error, never a thrown host object. The
 * run's calls share a budget of characters of arguments and results (what a
 * host records of them): without it, a program calling a tool 40 times with
 * 4 MiB of control characters (24 MiB as JSON) made a turn record no JSON
 * string could hold, and the session could not be saved.
 */
import { neededGrantOf, type NeededGrant } from '../runtime/needed-grant.ts';
import type { ToolCallContext, ToolCallHandler } from './sandbox-types.ts';

/** What is left of a run's `maxToolDataChars`; each call that passes spends its arguments and result. */
export interface ToolDataBudget {
  left: number;
  readonly limit: number;
}

/** The refusal of a call that would pass the budget (a quota: the program's handlers cannot catch it). */
function overBudget(name: string, what: string, chars: number, budget: ToolDataBudget): string {
  const spent = budget.limit - budget.left;
  return failure('SCRIPT_TOOL_DATA_LIMIT', `tool ${name}: its ${what} (${chars} characters as JSON) would take the run's tool calls past ${budget.limit} characters of arguments and results (${spent} so far; limit: toolDataChars)`);
}

/** Calls `handler` and returns `{"ok":true,"value":…}` or `{"ok":false,"error":{code,message}}` as JSON text. */
export async function toolOutcomeJson(handler: ToolCallHandler, name: string, argsJson: string, context: ToolCallContext, budget?: ToolDataBudget): Promise<string> {
  // Refused before the tool runs: nothing of the call happens.
  if (budget !== undefined && argsJson.length > budget.left) return overBudget(name, 'arguments', argsJson.length, budget);
  try {
    const value: unknown = await handler(name, JSON.parse(argsJson), context);
    const json = JSON.stringify(value === undefined ? null : value);
    if (typeof json === 'string') {
      if (budget !== undefined) {
        // The tool ran; its result is not delivered.
        if (argsJson.length + json.length > budget.left) return overBudget(name, 'result', json.length, budget);
        budget.left -= argsJson.length + json.length;
      }
      return `{"ok":true,"value":${json}}`;
    }
    return failure('TOOL_RESULT_NOT_JSON', `tool ${name} returned a ${typeof value}, not JSON data`);
  } catch (error) {
    // A result JSON cannot carry (BigInt, a cycle) lands here too.
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : String(error);
    // Named once: a message that names the tool already (the interpreter's handler always does) is kept as it is, and
    // so is one of the interpreter's own calls (`$ask`, `$promptuser`: not tools, and their messages say what failed).
    const named = name.startsWith('$') || message.toLowerCase().includes(name.toLowerCase()) ? message : `tool ${name} failed: ${message}`;
    // The reference's number of a tool's own failure (HostCallError), for the script's error; a denial's grant.
    const { numericCode, grant } = (error ?? {}) as { numericCode?: unknown; grant?: unknown };
    return failure(typeof code === 'string' && code !== '' ? code : 'TOOL_FAILED', named, Number.isSafeInteger(numericCode) ? (numericCode as number) : undefined, neededGrantOf(grant));
  }
}

function failure(code: string, message: string, numericCode?: number, grant?: NeededGrant): string {
  return JSON.stringify({ ok: false, error: { code, message, ...(numericCode === undefined ? {} : { numericCode }), ...(grant === undefined ? {} : { grant }) } });
}
