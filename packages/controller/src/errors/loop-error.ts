/**
 * `LoopError`: the controller's one error class, for host mistakes only (an
 * unknown agent, a busy session in reject mode, a plugin that threw, a broken
 * store). A loop that stops for the model's or the program's sake is not an
 * error: it ends with a HALT decision, which is data (see `HaltReason`).
 */

/** Every `LOOP_…` code, sorted, with what it means and how to fix it. */
export const LOOP_ERROR_CODES = {
  LOOP_AGENT_INVALID: 'An agent definition failed validation, or its text is not JSON or YAML or holds what YAML would read other than written (an unknown or unfitting tag, a key that is a list, a whole number beyond 2^53 − 1; at its line and column); the message names the path of the bad field. Fix the definition. Also when a known secret (the loop\'s secrets() or the model\'s keys) stands in what the agent is (its model id, a policy pattern or grant): the stored agent would hold [REDACTED] there and be another agent; use a longer secret or leave it out of secrets().',
  LOOP_AGENT_NOT_FOUND: 'No agent with that name is defined by any plugin or file. Define it, or use one of the names listed.',
  LOOP_ARGUMENT_INVALID: 'A store call (or a run) was given an argument no store can hold: a listSessions option no store can take (a limit or offset that is not a whole number ≥ 0, a search over 1,000 characters or with a control character or lone surrogate, a parentSid or sidPrefix that is no session id, an unknown status or option name), a session id that is empty, too long, not well-formed Unicode or has control characters, a turn index outside 1 to 2^31 − 1; a call\'s options that are not an object, an option the call does not take (with the one meant), an onEvent that is not a function or a note that is not text, or a signal that is not an AbortSignal. The message names the argument, the call and the value. Fix the caller.',
  LOOP_APPROVAL_NOT_PENDING: 'approve/deny was called for a session that is not paused for approval. Check the session status first.',
  LOOP_CANCELLED: "The caller's signal aborted before the call stored or changed anything: it had aborted before the call began, or it aborted while the call waited for the tool sources (MCP servers) to start or for a turn of the session that another call or host was running. Nothing to undo; call again when ready.",
  LOOP_CLOSED: 'A call was made on a controller after its close() began. Make a new controller with createAskLoop (calls in flight when close() was called were cancelled: a run ends HALT ERR_CANCELLED, resumable).',
  LOOP_CONFIG_INVALID: 'createAskLoop options are wrong or inconsistent (no store, an option it does not have, a value of the wrong kind — an interpreter, pool or toolStores of the wrong shape —, toolStores with toolStorePath, a bad limit, a secrets() — the loop\'s or its model\'s — that threw or returned no list when a turn read it), createSqliteTranscriptStore was given an option it does not have or no path, or otelPlugin() found no @opentelemetry/api. The message names the option or the package.',
  LOOP_LEASE_LOST: "Another host took over this session's lease while this host's step ran (it stalled past sessionLeaseMs): the step's transcript write was refused, or a renewal found the lease gone and stopped the step. Tool effects made before the stop stay made. Do not retry the step here; the other host owns the session now.",
  LOOP_PLUGIN_ERROR: 'A plugin hook or factory threw, or a programChecked or decide hook answered with something the loop does not know (the program does not run); `plugin` and `hook` name it and `cause` is what it threw or what was wrong. Fix or remove the plugin.',
  LOOP_PLUGIN_INVALID: 'A plugin has no name, an unknown specificationVersion, a misspelt field it reads or a hook it does not call, a field of the wrong shape, a provider name that is empty or holds a colon or white space, or contributes a name another plugin already uses; or one of its providers refuses to make a model as PROVIDER_CONFIG (it is malformed or misconfigured: defineProvider given the request function itself as attempt, say; cause is its error).',
  LOOP_PROVIDER_NOT_FOUND: "The agent's model id names no registered provider or model. Use `provider:model` with a listed provider.",
  LOOP_SESSION_BUSY: 'A turn of this session is already in flight (here, or on another host holding the store lease) and the gate is in reject mode. Retry later, or use wait mode.',
  LOOP_SESSION_NOT_FOUND: 'No session with that id is in the store. List sessions to find the id.',
  LOOP_STORE_ERROR: 'The transcript store failed (I/O, schema). The cause is attached; nothing was committed for the turn.',
  LOOP_TOOLS_MISSING: "A turn whose program was already checked (it was running, or paused for a person's approval) names tools this host does not have: a plugin or an MCP server the session's first host had is missing here. Nothing ran and nothing was saved; the session waits as it was. Continue it on a host with the same plugins and MCP servers (askloop: the same --config and --mcp-config).",
} as const;

/** A stable `LOOP_…` code. */
export type LoopErrorCode = keyof typeof LOOP_ERROR_CODES;

/** Optional details of a {@link LoopError}. */
export interface LoopErrorOptions {
  readonly code: LoopErrorCode;
  readonly message: string;
  readonly sid?: string;
  readonly plugin?: string;
  /**
   * `LOOP_PLUGIN_INVALID` of `createAskLoop`: the position, in its `plugins` option, of the plugin at fault (in a
   * clash, the later one), so a host that built the list (from a config file, say) can point at where it came from.
   */
  readonly pluginIndex?: number;
  /** With `pluginIndex`, of a clash: the position of the earlier plugin that already has the name. */
  readonly clashIndex?: number;
  readonly hook?: string;
  /** `LOOP_AGENT_INVALID` of a definition's text: the 1-based line of its (first) problem, when the text has it at a place. */
  readonly line?: number;
  /** With `line`: the 1-based column. */
  readonly column?: number;
  readonly cause?: unknown;
}

const MARKER = Symbol.for('askloop.loop-error');

/** A host mistake (never a HALT). `code` is stable; see {@link LOOP_ERROR_CODES}. */
export class LoopError extends Error {
  readonly code: LoopErrorCode;
  readonly sid: string | undefined;
  readonly plugin: string | undefined;
  /** See {@link LoopErrorOptions.pluginIndex}. */
  readonly pluginIndex: number | undefined;
  /** See {@link LoopErrorOptions.clashIndex}. */
  readonly clashIndex: number | undefined;
  readonly hook: string | undefined;
  /** See {@link LoopErrorOptions.line}. */
  readonly line: number | undefined;
  /** See {@link LoopErrorOptions.column}. */
  readonly column: number | undefined;
  readonly [MARKER] = true;

  constructor(options: LoopErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LoopError';
    this.code = options.code;
    this.sid = options.sid;
    this.plugin = options.plugin;
    this.pluginIndex = options.pluginIndex;
    this.clashIndex = options.clashIndex;
    this.hook = options.hook;
    this.line = options.line;
    this.column = options.column;
  }

  /** Plain data for logs and `--json` (never includes the cause's stack). */
  toJSON(): { code: LoopErrorCode; message: string; sid?: string; plugin?: string; pluginIndex?: number; clashIndex?: number; hook?: string; line?: number; column?: number } {
    return {
      code: this.code,
      message: this.message,
      ...(this.sid === undefined ? {} : { sid: this.sid }),
      ...(this.plugin === undefined ? {} : { plugin: this.plugin }),
      ...(this.pluginIndex === undefined ? {} : { pluginIndex: this.pluginIndex }),
      ...(this.clashIndex === undefined ? {} : { clashIndex: this.clashIndex }),
      ...(this.hook === undefined ? {} : { hook: this.hook }),
      ...(this.line === undefined ? {} : { line: this.line }),
      ...(this.column === undefined ? {} : { column: this.column }),
    };
  }
}

/** True for a {@link LoopError} from any copy of this package. */
export function isLoopError(value: unknown): value is LoopError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}
