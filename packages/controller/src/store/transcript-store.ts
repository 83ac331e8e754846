/**
 * Where sessions and their turns live. An interface: SQLite (`node:sqlite`)
 * is the embedded default, memory for tests, PostgreSQL for several hosts.
 * Every method is async so a networked store fits. A turn is saved as it
 * moves on (asking, its reply, executing, decided) and is complete (phase
 * `decided`) before the next turn starts; the decided (or paused) record is
 * saved together with the session row that counts it, in one transaction.
 */
import type { JsonValue } from '@askloop/interpreter';
import type { Clock, ToolStores } from '@askloop/tools';
import type { LoopDecision } from '../decide/loop-decision.ts';
import type { LoopTally } from '../decide/loop-tally.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import type { TurnRange } from './turn-range.ts';

/** The status of a session. */
export type SessionStatus = 'running' | 'paused' | 'done' | 'halted';

/** One session (SID): the task and where it stands. */
export interface SessionRecord {
  readonly sid: string;
  readonly agent: string;
  /** The agent definition in force (resolved), so resume and replay need no config. */
  readonly agentDefinition: JsonValue;
  /** USERDATA as sent (the task is its `subject`). */
  readonly userdata: JsonValue;
  readonly status: SessionStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Decided turns so far. */
  readonly turns: number;
  /** The last decision (DONE/HALT/PAUSE), once the session stopped or paused. */
  readonly lastDecision?: LoopDecision;
  /** Set by a parent loop when this session runs an `ask` statement (seed 004). */
  readonly parentSid?: string;
  /**
   * What the loop needs from the decided turns (totals, streaks, digests,
   * decisions), kept here so a step reads no earlier record. Written by the
   * controller with each decided turn; a store keeps it as it keeps the rest
   * of the record. Absent on sessions written before it existed (rebuilt
   * from the turns when needed).
   */
  readonly tally?: LoopTally;
}

/**
 * Which sessions {@link TranscriptStore.listSessions} lists and
 * {@link TranscriptStore.countSessions} counts. Every store takes the same
 * sessions for the same filter (`sessionMatchesList` says what each filter
 * means) and refuses the same bad ones with `LOOP_ARGUMENT_INVALID`
 * (`requireListOptions`). The filters are queries in a database store, so a
 * viewer or a command can page through, search and count a store of any
 * size without reading every session.
 */
export interface SessionFilter {
  readonly status?: SessionStatus;
  /** Only the sessions an `ask` of this session started (their `parentSid`). */
  readonly parentSid?: string;
  /** Only the sessions whose id starts with this text (case as given). */
  readonly sidPrefix?: string;
  /**
   * Only the sessions whose id, agent name or task (USERDATA's `subject`,
   * when it is a string) contains this text. ASCII letters match in either
   * case; every other character matches only itself (so `É` does not find
   * `é`). At most 1,000 characters, well-formed (no lone surrogate), with no
   * control characters; '' matches every session.
   */
  readonly search?: string;
}

/** The options of {@link TranscriptStore.listSessions}: a {@link SessionFilter}, and the page of its matches (newest first). */
export interface ListSessionsOptions extends SessionFilter {
  /** Skip this many of the matching sessions (the newest) first: a whole number from 0, like `limit`. */
  readonly offset?: number;
  /**
   * At most this many sessions (after `offset`): a whole number from 0
   * (none) to `Number.MAX_SAFE_INTEGER`; left out, every session. Anything
   * else — a negative number, a fraction, NaN, Infinity — is refused by every
   * store with `LOOP_ARGUMENT_INVALID`, never read as "drop the oldest" or
   * "no limit".
   */
  readonly limit?: number;
}

/**
 * The store interface. Every store holds the same keys: a session id of 1 to
 * 256 characters, well-formed Unicode with no control characters (U+0000
 * included), and turn indexes from 1 to 2^31 − 1; every method given another
 * id or index refuses it with `LOOP_ARGUMENT_INVALID` (`requireSessionId`,
 * `requireTurnIndex` in `store-keys.ts`), reads included, so no store keeps
 * what another could not.
 */
export interface TranscriptStore {
  createSession(session: SessionRecord): Promise<void>;
  getSession(sid: string): Promise<SessionRecord | undefined>;
  /**
   * Replaces the stored session with `session` — the whole record: status,
   * turns, lastDecision, updatedAt and tally change as a session runs, and a
   * store that kept only some of them would lose the tally, so every step
   * would rebuild it from all the turns. An unknown sid is
   * `LOOP_SESSION_NOT_FOUND`.
   */
  updateSession(session: SessionRecord): Promise<void>;
  listSessions(options?: ListSessionsOptions): Promise<readonly SessionRecord[]>;
  /**
   * Optional: how many sessions `filter` matches — as many as `listSessions`
   * would list with that filter and no `offset` or `limit` — without reading
   * them (a count in a database store). Refuses `offset`, `limit` and
   * whatever `listSessions` refuses, with `LOOP_ARGUMENT_INVALID`. The
   * exported `countSessions(store, filter)` calls it, or lists and counts
   * when a store has none. The built-in stores have it.
   */
  countSessions?(filter?: SessionFilter): Promise<number>;
  /**
   * Inserts or replaces the turn `(sid, turnIndex)`; with `session`, also
   * replaces that session's record as `updateSession` does — both in
   * one transaction (a decided turn and the session row that counts it).
   */
  saveTurn(record: TurnRecord, session?: SessionRecord): Promise<void>;
  /** Every turn of the session, by turn index. */
  listTurns(sid: string): Promise<readonly TurnRecord[]>;
  /**
   * Optional: the session's turns that `range` takes (indexes from `from` to
   * `to`, of those the `last` ones), by turn index, without reading the
   * others — what a reader of a long session needs (the viewer shows the
   * latest fifty of 10,000). Refuses a bad id or range
   * (`requireTurnRange`) with `LOOP_ARGUMENT_INVALID`. The exported
   * `listTurnRange(store, sid, range)` calls it, or lists every turn and
   * filters when a store has none. The built-in stores have it.
   */
  listTurnRange?(sid: string, range: TurnRange): Promise<readonly TurnRecord[]>;
  /** The session's turn with the highest index (undefined when it has none): what a step reads. */
  lastTurn(sid: string): Promise<TurnRecord | undefined>;
  /**
   * Optional: the tools' memory, scratch and idempotence stores on the same
   * database, so one file (or server) holds a session's transcript and its
   * tool effects. `createAskLoop` uses it when no `toolStores` or
   * `toolStorePath` is given, and closes what it returns before the store.
   * `clock` (TTLs, record times) is passed only when `createAskLoop` was given
   * one; without it the store measures on its own clock (SQLite: the one it
   * was opened with, the host's by default; PostgreSQL: the database
   * server's, which every host shares).
   */
  openToolStores?(options?: { readonly clock?: Clock }): ToolStores & { close(): void };
  /**
   * Optional, for a store several hosts share: takes or renews `holder`'s
   * lease on the session for `ttlMs` unless another holder's lease is still
   * live; resolves true when `holder` holds it now. `createAskLoop` holds it
   * around every turn, so two hosts never run turns of one session at once,
   * and a dead host's lease lapses after `ttlMs`.
   */
  acquireLease?(sid: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives up `holder`'s lease on the session (nothing when it holds none). */
  releaseLease?(sid: string, holder: string): Promise<void>;
  /**
   * Optional, for readers: when the session's lease lapses (ms since the
   * epoch, on the store's clock; 0 once given up), or undefined when no host
   * ever took one. A `running` session whose lease has lapsed and that has not
   * been updated for a lease's time is run by no host (its host stopped or
   * crashed): `resume` continues it. The viewer says so.
   */
  leaseExpiresAt?(sid: string): Promise<number | undefined>;
  close(): Promise<void>;
}
