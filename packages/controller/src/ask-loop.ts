/**
 * The public face of the controller: `createAskLoop({ plugins, store })`
 * returns an {@link AskLoop} that runs, steps, resumes, approves, denies and
 * replays sessions. These are its types; `create-ask-loop.ts` builds it.
 */
import type { Userdata } from '@askloop/envelope';
import type { SandboxRunner } from '@askloop/interpreter';
import type { Clock, ToolStores } from '@askloop/tools';
import type { AgentDefinition } from './agent/agent-definition.ts';
import type { HaltReason } from './decide/halt-reason.ts';
import type { LoopEventListener } from './events/loop-event.ts';
import type { LoopInterpreter } from './interpreter/loop-interpreter.ts';
import type { AskLoopPlugin } from './plugin/plugin.ts';
import type { TranscriptStore } from './store/transcript-store.ts';
import type { TurnFailure } from './loop/turn-record.ts';

/** Options of `createAskLoop`. */
export interface AskLoopOptions {
  readonly plugins: readonly AskLoopPlugin[];
  /** Where sessions live; `createSqliteTranscriptStore(path)` or `createMemoryTranscriptStore()`. */
  readonly store: TranscriptStore;
  /** The interpreter; default: `@askloop/interpreter` on `pool`. */
  readonly interpreter?: LoopInterpreter;
  /** The sandbox pool of the default interpreter (closed by `close()` only when the loop created it). */
  readonly pool?: SandboxRunner;
  /**
   * Where the tools' memory, scratch and idempotence records live (a server
   * database package injects its own); not closed by `close()`. Without it
   * and without `toolStorePath`: on the transcript store's own database when
   * the store offers `openToolStores` (a SQLite transcript store does: one
   * file holds the transcript and the tool effects), else in memory.
   */
  readonly toolStores?: ToolStores;
  /** A SQLite file of their own for the tools' stores (opened on first use, closed by `close()`); not with `toolStores`. */
  readonly toolStorePath?: string;
  /** What to do when a turn of a session is already in flight (here or on another host): wait for it (default) or reject with LOOP_SESSION_BUSY. */
  readonly busy?: 'wait' | 'reject';
  /**
   * How long this host's lease on a session lives without renewal, in ms
   * (default 15 000, at most `MAX_SESSION_LEASE_MS`, about 24.8 days;
   * renewed every third of it while a turn runs). After a host dies, another
   * waits at most this long to resume its sessions.
   */
  readonly sessionLeaseMs?: number;
  /**
   * How many sessions' models and tool call counters this controller keeps
   * between calls (least recently used dropped first; default 1024). A
   * dropped session gets a new model and counter on its next step.
   */
  readonly sessionCacheSize?: number;
  /**
   * How many turns prepare (parse, check) and run their programs at once;
   * the others wait for a slot holding only their reply text. Default twice
   * the sandbox pool's workers (its `stats().size`; 3 when unknown). Child
   * loops of `ask` do not wait (their parent's turn holds a slot); a turn
   * whose signal aborts while it waits stops waiting (HALT `ERR_CANCELLED`).
   */
  readonly maxConcurrentRuns?: number;
  /**
   * How long a model call may go on after its envelope's END line before it is
   * aborted (ms; default 200, `END_GRACE_MS`). A call that ends by itself keeps
   * its connection and reports the provider's real usage; one still going is
   * aborted (nothing after END is ever read) and its usage estimated. Raise it
   * for a model that streams a few tokens a second.
   */
  readonly endGraceMs?: number;
  /**
   * How long the tools' idempotence records of a session's earlier turns are
   * kept, in whole ms (default one hour, `IDEMPOTENCE_RETENTION_MS`, or ten
   * `sessionLeaseMs` when that is longer). A turn's first write call removes
   * the session's records of earlier turns older than this, by the tool
   * stores' own clock; `Infinity` keeps them all. A record outlives its turn
   * for a host that stalled mid-turn past its lease: its next write of that
   * turn, should it get past the lease check every write makes first,
   * replays the record instead of acting again. Keep it well above
   * `sessionLeaseMs`.
   */
  readonly idempotenceRetentionMs?: number;
  /**
   * Values no model and no record may see, read at each turn (a key the
   * tools use, a token of an MCP server's environment). Every string a tool
   * gives back, and every tool failure's message, has them replaced by
   * `[REDACTED]` before the program sees it, together with the keys the
   * turn's model sends (`LanguageModel.secrets`, which the providers give):
   * a tool that quotes a key in its error would otherwise hand it to the
   * model in the next envelope and to every record of the turn. A throw or
   * an answer that is not a list fails the turn (`LOOP_CONFIG_INVALID`).
   * Default: the models' keys only.
   */
  readonly secrets?: () => readonly (string | undefined | null)[];
  /**
   * The host's clock: record times, turn timings, the tools' `time.*` and the TTLs of the tools' stores this loop
   * opens itself (`toolStorePath`, a throwaway one). The store's own tool stores (`openToolStores`) get it only when
   * it is given: without it they keep theirs (PostgreSQL's is the database server's, which every host shares).
   * Default the system clock.
   */
  readonly clock?: Clock;
  /** Session and loop ids; default random UUIDs. */
  readonly createId?: () => string;
  /** Called for every event of every session. */
  readonly onEvent?: LoopEventListener;
}

/** Options of one `run`. */
export interface RunLoopOptions {
  /** An agent name (from a plugin) or a definition. */
  readonly agent: string | AgentDefinition;
  /** The task: a string becomes USERDATA `{"subject": task}`; an object is USERDATA as is (validated). */
  readonly task: string | Userdata;
  /** Use this session id (default: a new one). */
  readonly sid?: string;
  /** Aborting halts the loop with ERR_CANCELLED after the current step; the session stays resumable. */
  readonly signal?: AbortSignal;
  readonly onEvent?: LoopEventListener;
}

/** Options of `resume`, `step`, `approve` and `deny`. */
export interface ContinueOptions {
  readonly signal?: AbortSignal;
  readonly onEvent?: LoopEventListener;
  /** For approve/deny: a note stored with the decision. */
  readonly note?: string;
}

/** How a loop ended (or paused): the `askloop run --json` object. */
export interface LoopResult {
  /** `RUNNING` only after `step` when the loop goes on. */
  readonly status: 'DONE' | 'HALT' | 'PAUSED' | 'RUNNING';
  readonly reason: HaltReason | 'AWAITING_APPROVAL' | 'V1_AWAIT' | null;
  /** The final result (DONE); for a v1 HALT the OUTPUT with its `[[loop:halt:reason=…]]` marker; else null. */
  readonly result: string | null;
  /** What the HALT or PAUSE decision says (e.g. `SCRIPT_TOOL_DENIED: Tool 'tool.fs.Write' is not allowed here …`); null otherwise. */
  readonly message: string | null;
  /**
   * The last turn's failure, when it had one: its stable code (`SCRIPT_TOOL_DENIED`,
   * `ERR_ENV_…`, `PROVIDER_…`), kind, message, and the ACTIONS line and column.
   * The cause behind most HALTs (`ERR_PERMISSIONS`, `ERR_SYNTAX`, …), but not
   * always the reason: a turn whose failure was fed back under `repair` can
   * be the last one a ceiling allowed (HALT `ERR_MAX_TURNS_EXCEEDED`, failure
   * `SCRIPT_SYNTAX`); after a `step`, the failure the model is shown next.
   * Null when the last turn did not fail.
   */
  readonly failure: TurnFailure | null;
  /**
   * Decided turns. A turn paused for approval (`AWAITING_APPROVAL`) is not
   * decided until its program runs: it is listed in `decisions` (its PAUSE)
   * but not counted here; a v1 `await` turn ran its program and is counted.
   */
  readonly turns: number;
  readonly sid: string;
  readonly decisions: readonly { readonly turn: number; readonly decision: 'CONTINUE' | 'DONE' | 'HALT' | 'PAUSE'; readonly reason: string | null }[];
  /** Totals over the session. */
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly costUsd: number; readonly fuel: number; readonly toolCalls: number; readonly wallMs: number };
}

/** A field of the first turn where a replay differs from the recording. */
export interface ReplayDivergence {
  readonly turnIndex: number;
  /** A dotted path into the turn record, e.g. `digest` or `decision.kind`. */
  readonly field: string;
  readonly recorded: unknown;
  readonly replayed: unknown;
  /**
   * The replayed turn's failure, when the recording had another (or none):
   * often the reason it diverged, e.g. `SCRIPT_TOOL_NOT_FOUND` when the
   * replaying host lacks a tool the session's host had.
   */
  readonly replayedFailure?: { readonly code: string; readonly message: string };
}

/** The outcome of `replay`. */
export interface ReplayReport {
  readonly sid: string;
  readonly matched: boolean;
  readonly turns: number;
  readonly divergence: ReplayDivergence | null;
}

/** A configured controller. */
export interface AskLoop {
  /** Creates a session without running a turn (for `step`-driven workers); returns its id. Invalid USERDATA gives a session halted ERR_USERDATA_SCHEMA. */
  create(options: RunLoopOptions): Promise<string>;
  /** Starts a session and runs it until DONE, HALT or PAUSE. HALT is data: this rejects only with a LoopError (host mistakes). */
  run(options: RunLoopOptions): Promise<LoopResult>;
  /** Runs exactly one turn of a running session (for multi-host workers); returns the loop's state after it. */
  step(sid: string, options?: ContinueOptions): Promise<LoopResult>;
  /** Continues a stored session from its last completed turn (after a crash or a cancel). */
  resume(sid: string, options?: ContinueOptions): Promise<LoopResult>;
  /** Approves the paused turn's program; it runs and the loop continues. */
  approve(sid: string, options?: ContinueOptions): Promise<LoopResult>;
  /** Denies the paused turn's program; the loop halts with ERR_PERMISSIONS (or feeds the denial back under `repair`). */
  deny(sid: string, options?: ContinueOptions): Promise<LoopResult>;
  /** Re-runs a stored session with its recorded replies and tool results and compares every digest and decision. */
  replay(sid: string): Promise<ReplayReport>;
  /** Closes tool sources, the default pool and the store. */
  close(): Promise<void>;
}
