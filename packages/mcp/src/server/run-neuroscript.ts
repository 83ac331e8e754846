/**
 * The one place this package calls the interpreter: `run` (prepare, then
 * execute) and `prepare` alone for the check.
 */
import { createInterpreter, resolveLimits, toolsAtRunStart, type Diagnostic, type JsonValue, type RunLimits, type RunResult } from '@askloop/interpreter';
import { createToolHost, type Policy, type ToolRegistry, type ToolStores } from '@askloop/tools';
import { clientCatalog } from './client-catalog.ts';
import { createToolFailureLog, type ErrorCause } from './tool-failure-causes.ts';

/** What one run or check needs from the server. */
export interface NeuroScriptSetup {
  readonly registry: ToolRegistry;
  readonly policy: Policy;
  readonly limits?: Partial<RunLimits>;
  readonly stores?: Partial<ToolStores>;
  /** Session id of the tool host (call limits). */
  readonly session: string;
  /** Secrets replaced in what tools give back (`createToolHost({ redact, redactionMarker })`). */
  readonly redact?: (text: string) => string;
  readonly redactionMarker?: string;
}

/** A program and its libraries, as sent by the MCP client. */
export interface NeuroScriptRequest {
  readonly program: string;
  readonly libraries?: readonly string[];
  readonly userdata?: JsonValue;
}

/**
 * The stores of a run without its idempotence records: they exist for a run
 * of the same turn again (a resume), and no run here ever runs again — each
 * gets a turn number of its own. Kept, they would be two more writes for
 * every write call and rows no one reads, for as long as the server runs.
 */
function withoutRecords(stores: Partial<ToolStores>): Partial<ToolStores> {
  const { idempotence: _unread, ...rest } = stores;
  return rest;
}

/** A run's result, and the coded cause under its error when a failed tool call stopped it (`MCP_TIMEOUT`, `FS_NOT_FOUND`). */
export interface NeuroScriptRunResult extends RunResult {
  readonly errorCause?: ErrorCause;
}

/** How long past the run's wall clock its tool calls may last at most (the run ends first, as SCRIPT_TIMEOUT). */
const TOOL_DEADLINE_GRACE_MS = 1000;

/**
 * Checks, then runs a program in agent mode (one command block) in the
 * sandbox. `turn` numbers the runs of a session. The run's tool host is bound
 * to the run: its calls are cancelled when the run ends (however it ends) or
 * the client cancels, never last past the run's deadline, and their results
 * are refused past the run's value-size limits — a long-running server must
 * not keep a finished run's tool calls going. Cancelling a call reaches an
 * MCP server behind the tool as `notifications/cancelled`.
 */
export async function runNeuroScript(setup: NeuroScriptSetup, request: NeuroScriptRequest, turn: number, signal?: AbortSignal): Promise<NeuroScriptRunResult> {
  const limits = resolveLimits(setup.limits ?? {});
  const runEnded = new AbortController();
  const hostOptions = {
    registry: setup.registry,
    policy: setup.policy,
    session: setup.session,
    turn,
    ...(setup.stores === undefined ? {} : { stores: withoutRecords(setup.stores) }),
    signal: signal === undefined ? runEnded.signal : AbortSignal.any([signal, runEnded.signal]),
    maxResultLength: limits.stringLength,
    maxResultItems: limits.collectionSize,
    ...(setup.redact === undefined ? {} : { redact: setup.redact }),
    ...(setup.redactionMarker === undefined ? {} : { redactionMarker: setup.redactionMarker }),
  };
  // The host that calls the tools is made when a sandbox worker takes the run (`onStart`), so its deadline
  // counts from the run's start, as the run's wall clock does — not from before the check and a wait for a busy pool.
  const { call, onStart } = toolsAtRunStart(() => createToolHost({ ...hostOptions, deadline: Date.now() + limits.wallMs + TOOL_DEADLINE_GRACE_MS, deadlineGraceMs: TOOL_DEADLINE_GRACE_MS }));
  // What each failed call threw, read once the run has ended: the script error keeps only a message.
  const failures = createToolFailureLog();
  const observed: typeof call = async (name, args, options) => {
    try {
      return await call(name, args, options);
    } catch (error) {
      failures.record(error);
      throw error;
    }
  };
  const tools = { catalog: clientCatalog(createToolHost(hostOptions).catalog, setup.registry), call: observed };
  const interpreter = createInterpreter({ ...(setup.limits === undefined ? {} : { limits: setup.limits }) });
  try {
    const result = await interpreter.run(request.program, {
      mode: 'agent',
      fileName: 'program.ns',
      tools,
      onStart,
      ...(request.libraries === undefined ? {} : { libraries: [...request.libraries] }),
      ...(request.userdata === undefined ? {} : { userdata: request.userdata }),
      ...(signal === undefined ? {} : { signal }),
    });
    const cause = result.error !== null && result.error.code.startsWith('SCRIPT_TOOL_') ? failures.causeOf(result.error.message) : undefined;
    return cause === undefined ? result : { ...result, errorCause: cause };
  } finally {
    runEnded.abort();
  }
}

/** The static check alone: every diagnostic of the program (agent mode) and of its libraries (named `library-N`). */
export async function checkNeuroScript(setup: NeuroScriptSetup, request: NeuroScriptRequest): Promise<readonly Diagnostic[]> {
  const catalog = clientCatalog(createToolHost({ registry: setup.registry, policy: setup.policy, session: setup.session, turn: 0 }).catalog, setup.registry);
  const result = await createInterpreter().prepare(request.program, {
    mode: 'agent',
    fileName: 'program.ns',
    catalog,
    allowAsk: false,
    // The names neuroscript_run binds (`userdata` when the request has it), so the check finds what the run would
    // refuse or fail on: bare-name map keys and whisper targets, writes to globals, reads of names nothing sets.
    globalNames: request.userdata === undefined ? [] : ['userdata'],
    ...(request.libraries === undefined ? {} : { libraries: [...request.libraries] }),
  });
  return result.diagnostics;
}
