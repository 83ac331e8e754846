/**
 * The host end of the tool bridge (reference §2.3): every call the script
 * makes arrives here as a name and copied JSON arguments. Tools run here, in
 * the host, never in the isolate; the result is copied back as JSON. `ask` and
 * `promptuser` travel on the same channel under names no tool can have.
 *
 * Defence in depth: a tool call is only passed on when the static check
 * approved that tool for this run (it appears in the checked ASTs) and the
 * interpreter's policy allows it; anything else is `SCRIPT_TOOL_DENIED`.
 */
import { policyDenial, type ToolPolicy } from '../check/index.ts';
import { ASK_CALL, PROMPT_USER_CALL } from '../evaluate/host-call-name.ts';
import type { JsonValue } from '../runtime/index.ts';
import type { ToolCallHandler } from '../sandbox/sandbox-types.ts';
import { HostCallError, mapHostFailure } from './map-host-failure.ts';
import type { AskOrchestrator, Interpreter, ToolBridge } from './run-types.ts';

/** What the handler needs from the interpreter and the run. */
export interface HostCallSetup {
  readonly tools: ToolBridge | undefined;
  readonly orchestrator: AskOrchestrator | undefined;
  readonly promptUser: ((prompt: string, signal: AbortSignal) => Promise<string> | string) | undefined;
  readonly interpreter: Interpreter;
  /** Canonical names of the tools the static check approved for this run; no other tool is called. */
  readonly approvedTools: ReadonlySet<string>;
  /** The interpreter's allow/deny globs, applied again to every call. */
  readonly policy: ToolPolicy | undefined;
}

/** Refuses a tool the run was not approved for, or one the policy denies. */
function refuseUnapproved(setup: HostCallSetup, name: string): void {
  if (!setup.approvedTools.has(name)) {
    throw new HostCallError({ code: 'SCRIPT_TOOL_DENIED', message: `Tool '${name}' was not approved by the static check of this run, so it cannot be called.` });
  }
  const denial = setup.policy === undefined ? undefined : policyDenial(setup.policy, name);
  if (denial !== undefined) {
    throw new HostCallError({ code: 'SCRIPT_TOOL_DENIED', message: `Tool '${name}' is not allowed here: ${denial}.` });
  }
}

/** Copies a host result into JSON data, refusing anything JSON cannot carry. */
export function toJsonData(value: unknown, what: string): JsonValue {
  if (value === undefined) return null;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new HostCallError({ code: 'SCRIPT_TOOL_ERROR', message: `${what} returned a value that is not JSON data: ${(error as Error).message}` });
  }
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
}

async function guard<T>(what: string, body: () => Promise<T> | T): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof HostCallError) throw error;
    throw new HostCallError(mapHostFailure(error, what));
  }
}

/** Builds the sandbox's `onToolCall` for one run. */
export function createHostCallHandler(setup: HostCallSetup): ToolCallHandler {
  return async (name, args, context) => {
    if (name === ASK_CALL) {
      const request = args as { agent: string; prompt: string; options: JsonValue };
      const orchestrator = setup.orchestrator;
      if (orchestrator === undefined) {
        throw new HostCallError({ code: 'SCRIPT_ASK_UNAVAILABLE', message: `ask '${request.agent}': no ask orchestrator is registered with this interpreter.` });
      }
      return guard(`ask '${request.agent}'`, async () =>
        toJsonData(
          await orchestrator.runAskLoop({ agent: request.agent, prompt: request.prompt, options: request.options, signal: context.signal, interpreter: setup.interpreter }),
          'the ask orchestrator',
        ),
      ).catch((error: HostCallError) => {
        throw new HostCallError({ code: error.code === 'SCRIPT_TOOL_ERROR' ? 'SCRIPT_ASK_FAILED' : error.code, message: error.message });
      });
    }
    if (name === PROMPT_USER_CALL) {
      const { prompt } = args as { prompt: string };
      const promptUser = setup.promptUser;
      if (promptUser === undefined) {
        throw new HostCallError({ code: 'SCRIPT_PROMPT_UNAVAILABLE', message: 'promptuser: this host does not read user input.' });
      }
      return guard('promptuser', async () => String(await promptUser(prompt, context.signal)));
    }
    refuseUnapproved(setup, name);
    const tools = setup.tools;
    if (tools === undefined) {
      throw new HostCallError({ code: 'SCRIPT_TOOL_NOT_FOUND', message: `tool '${name}' not found: this interpreter has no tools.` });
    }
    const list = Array.isArray(args) ? (args as JsonValue[]) : [];
    return guard(`tool '${name}'`, async () => toJsonData(await tools.call(name, list), `tool '${name}'`));
  };
}
