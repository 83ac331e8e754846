/**
 * The host end of the tool bridge (reference §2.3): every call the script
 * makes arrives here as a name and copied JSON arguments. Tools run here, in
 * the host, never in the isolate; the result is copied back as JSON. `ask` and
 * `promptuser` travel on the same channel under names no tool can have.
 *
 * Defence in depth: a tool call is only passed on when the static check
 * approved that tool for this run (it appears in the checked ASTs); anything
 * else is `SCRIPT_TOOL_DENIED`. Authorisation itself is the tool host's: it
 * applies the one policy again, with the actual arguments.
 */
import { ASK_CALL, PROMPT_USER_CALL } from '../evaluate/host-call-name.ts';
import { errorKind, type JsonValue, type RunLimits } from '../runtime/index.ts';
import type { ToolCallContext, ToolCallHandler } from '../sandbox/sandbox-types.ts';
import { callSignal } from './call-signal.ts';
import { checkToolResultSize } from './tool-result-size.ts';
import { HostCallError, mapHostFailure } from './map-host-failure.ts';
import { toJsonData } from './tool-json-data.ts';
import { ignoreRejection } from './observer-result.ts';
import { WALL_GRACE_MS } from './wall-grace.ts';
import type { AskOrchestrator, Interpreter, ToolBridge, ToolBridgeCallOptions, ToolCallReport } from './run-types.ts';

/** What the handler needs from the interpreter and the run. */
export interface HostCallSetup {
  readonly tools: ToolBridge | undefined;
  readonly orchestrator: AskOrchestrator | undefined;
  readonly promptUser: ((prompt: string, signal: AbortSignal) => Promise<string> | string) | undefined;
  readonly interpreter: Interpreter;
  /** Canonical names of the tools the static check approved for this run; no other tool is called. */
  readonly approvedTools: ReadonlySet<string>;
  /** Told about each tool call when it ends. */
  readonly onToolCall: ((call: ToolCallReport) => void) | undefined;
  /** The run's limits a tool's result is held to before it is copied (the isolate holds it to them again). */
  readonly limits: Pick<RunLimits, 'stringLength' | 'collectionSize'>;
}

/** Refuses a tool the run was not approved for. */
function refuseUnapproved(setup: HostCallSetup, name: string): void {
  if (!setup.approvedTools.has(name)) {
    throw new HostCallError({ code: 'SCRIPT_TOOL_DENIED', message: `Tool '${name}' was not approved by the static check of this run, so it cannot be called.` });
  }
}

/** Calls a tool and reports the call (an observer's failure never changes the script's outcome). */
async function callTool(setup: HostCallSetup, name: string, list: JsonValue[], context: ToolCallContext): Promise<JsonValue> {
  const startedAt = performance.now();
  const report = (outcome: { result: JsonValue } | { error: HostCallError }): void => {
    if (setup.onToolCall === undefined) return;
    const durationMs = performance.now() - startedAt;
    const call: ToolCallReport =
      'result' in outcome
        ? { name, args: list, result: outcome.result, durationMs }
        : {
            name,
            args: list,
            error: {
              code: outcome.error.code,
              kind: errorKind(outcome.error.code),
              message: outcome.error.message,
              line: 0,
              column: 0,
              frames: [],
              ...(outcome.error.grant === undefined ? {} : { grant: outcome.error.grant }),
            },
            durationMs,
          };
    try {
      ignoreRejection(setup.onToolCall(call));
    } catch {
      // An observer is not part of the run.
    }
  };
  try {
    refuseUnapproved(setup, name);
    const tools = setup.tools;
    if (tools === undefined) {
      throw new HostCallError({ code: 'SCRIPT_TOOL_NOT_FOUND', message: `tool '${name}' not found: this run has no tools.` });
    }
    const { remainingMs } = context;
    // Aborts when the run ends (timeout, abort, error) while the call is open, so the bridge can stop its work.
    const ended = callSignal(context.signal);
    // The sandbox's clock runs WALL_GRACE_MS past the program's `wallMs`: what the program has left is that much less.
    // Whole milliseconds: a tool's timeout message shows the figure, and the model reads it.
    const options: ToolBridgeCallOptions = remainingMs === undefined ? { signal: ended.signal } : { signal: ended.signal, timeLeftMs: Math.max(0, Math.floor(remainingMs - WALL_GRACE_MS)) };
    let result: JsonValue;
    try {
      result = await guard(`tool '${name}'`, async () => {
        const value = await tools.call(name, list, options);
        checkToolResultSize(value, setup.limits, `tool '${name}'`);
        return toJsonData(value, `tool '${name}'`);
      }, name);
    } finally {
      ended.close();
    }
    report({ result });
    return result;
  } catch (error) {
    report({ error: error as HostCallError });
    throw error;
  }
}

/** What a prompt hook gave that is not text, named by kind (never its content). */
function notText(value: unknown): string {
  if (value === undefined || value === null) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Runs `body`; what it throws becomes a {@link HostCallError} (see {@link mapHostFailure} for `what` and `named`). */
async function guard<T>(what: string, body: () => Promise<T> | T, named?: string): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof HostCallError) throw error;
    throw new HostCallError(mapHostFailure(error, what, named));
  }
}

/** Builds the sandbox's `onToolCall` for one run. */
export function createHostCallHandler(setup: HostCallSetup): ToolCallHandler {
  return async (name, args, context) => {
    if (name === ASK_CALL) {
      const request = args as { agent: string; prompt: string; options: JsonValue };
      const orchestrator = setup.orchestrator;
      if (orchestrator === undefined) {
        throw new HostCallError({ code: 'SCRIPT_ASK_UNAVAILABLE', message: `ask '${request.agent}': this host runs no other agents, so ask is unavailable here; in the ask loop an agent may ask the agents its asks list names.` });
      }
      const what = `ask '${request.agent}'`;
      return guard(what, async () => {
        const answer = await orchestrator.runAskLoop({ agent: request.agent, prompt: request.prompt, options: request.options, signal: context.signal, interpreter: setup.interpreter });
        try {
          return toJsonData(answer, what);
        } catch (error) {
          if (error instanceof HostCallError) throw error;
          throw new HostCallError({ code: 'SCRIPT_ASK_FAILED', message: `${what}: the orchestrator's answer: ${(error as Error).message}` });
        }
      }).catch((error: HostCallError) => {
        throw new HostCallError({ code: error.code === 'SCRIPT_TOOL_ERROR' ? 'SCRIPT_ASK_FAILED' : error.code, message: error.message });
      });
    }
    if (name === PROMPT_USER_CALL) {
      const { prompt } = args as { prompt: string };
      const promptUser = setup.promptUser;
      if (promptUser === undefined) {
        throw new HostCallError({ code: 'SCRIPT_PROMPT_UNAVAILABLE', message: 'promptuser: this host does not read user input.' });
      }
      return guard('promptuser', async () => {
        const answer: unknown = await promptUser(prompt, context.signal);
        // Text only: String() made `undefined` the word "undefined", an object "[object Object]" and a function its source.
        if (typeof answer !== 'string') {
          throw new HostCallError({ code: 'SCRIPT_TOOL_ERROR', message: `promptuser: the prompt hook returned ${notText(answer)}, not text; return the person's answer as a string ('' for no answer)` });
        }
        return answer;
      });
    }
    return callTool(setup, name, Array.isArray(args) ? (args as JsonValue[]) : [], context);
  };
}
