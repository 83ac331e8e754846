/**
 * One plain-JSON record per turn: what was sent, what came back, what was
 * checked and run, what it did, and what was decided. It feeds persistence,
 * the decision log, events, replay comparison and resume: there is no second
 * representation. It is saved where a crash must resume from (asking, the
 * reply, executing, awaiting-approval, decided), so a crash resumes at a known
 * point (seed 002 §2's lifecycle).
 */
import type { Diagnostic, JsonValue, NeededGrant, ScriptErrorData } from '@askloop/interpreter';
import type { LoopDecision } from '../decide/loop-decision.ts';
import type { PreparedProgram, ScriptErrorKind } from '../interpreter/loop-interpreter.ts';

/**
 * Seed 002 §2: `IDLE → EXECUTING → SCANNING → DECIDED → (EMIT_NEXT | FINAL)`,
 * refined: `asking` (model call), `prepared` (checked, nothing ran yet),
 * `awaiting-approval` (paused before running), `executing`, `scanning`,
 * `decided` (the decision is final and the next turn may start).
 */
export type TurnPhase = 'idle' | 'asking' | 'prepared' | 'awaiting-approval' | 'executing' | 'scanning' | 'decided';

/** Why this turn exists: a normal turn, a repair after a failure, the no-progress nudge, or the final answer-now turn. */
export type TurnKind = 'normal' | 'repair' | 'nudge' | 'answer-now';

/** The model's reply as recorded (keys never included: a known secret in it is `[REDACTED]`, `secretsHidden`). */
export interface RecordedReply {
  /** What the model answered, up to and with the END line of its envelope when it streamed one (nothing after it is read). */
  readonly text: string;
  /**
   * Set when the model wrote the v4 DONE marker after its envelope's END line (in the first `END_GRACE_CHARACTERS`
   * characters after it), which `text` leaves out and which never ends the loop: the next turn is told
   * (`LINT_MARKER_NOT_COUNTED`, `marker-note.ts`). Absent otherwise, and on records from before it was kept.
   */
  readonly doneMarkerAfterEnd?: true;
  /**
   * Set when `text` had a known secret (the loop's `secrets()`, the model's keys) that was replaced by `[REDACTED]`
   * before anything read it: the program that ran is the one stored, and the next turn is told (`secret-note.ts`).
   * Absent otherwise, and on records from before replies were hidden.
   */
  readonly secretsHidden?: true;
  readonly provider: string;
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens?: number;
  readonly costUsd?: number;
  readonly finishReason: string;
  readonly latencyMs: number;
  readonly attempts: number;
}

/** One tool call with its arguments and result, as the run saw it. */
export interface RecordedToolCall {
  readonly index: number;
  /** The canonical (lower-case) name: what replay matches. */
  readonly name: string;
  /** The name as the catalogue writes it (`tool.str.SplitWords`), when it differs from `name`: what to show. */
  readonly displayName?: string;
  readonly args: readonly JsonValue[];
  readonly result?: JsonValue;
  /**
   * How the call failed, as the program saw it; with the `grant` that would allow it when the policy denied it for
   * want of one (see {@link TurnFailure.grant}), which a replay answers the call with again.
   */
  readonly error?: { readonly code: string; readonly message: string; readonly grant?: NeededGrant };
  /** Until it ended; for an `unfinished` call, until the run ended. */
  readonly durationMs: number;
  /**
   * Set on a call the run started that had not returned when the run ended (cancelled by the caller's signal,
   * `close()` or a lost lease, or out of time: the wall clock, a ceiling, the sandbox's backstop). Nothing of it
   * reached the program: it has no `result`, and an `error` only when the tool host gave up on it at the run's
   * deadline (`TOOL_TIMEOUT`) just before the run ended out of time. It may still have acted: when `resume` runs the
   * turn again, it moves to {@link TurnRecord.earlierUnfinished}. Absent on every other call (and on records from
   * before such calls were kept, which have no `toolCallsVersion`: they left the call out, or showed only that error).
   */
  readonly unfinished?: UnfinishedToolCall;
}

/** What a record knows of a call that was still out when its run ended. */
export interface UnfinishedToolCall {
  /**
   * The tool's declared effect (`read`, `write`, `external`), when the turn's tool registry knew the tool: a `write`
   * or `external` call may have changed something before, or after, it was cancelled.
   */
  readonly effect?: 'read' | 'write' | 'external';
  /** For people reading the record: that it had not returned when the run ended, and whether it may have acted. */
  readonly note: string;
}

/**
 * A call that was still out when an earlier run of the turn ended (see {@link TurnRecord.earlierUnfinished}), as that
 * run recorded it: its `index` is its place among that run's calls.
 */
export interface EarlierUnfinishedCall extends RecordedToolCall {
  /** The run of the turn that made it: 1 for the first, 2 for the one the first `resume` started, and so on. */
  readonly run: number;
  readonly unfinished: UnfinishedToolCall;
}

/**
 * A run of a turn that stopped before the turn was decided and whose end nobody saved — its host died or froze, lost
 * its lease, or its step failed (the database went away mid-step) — as the later step that continued the turn found it
 * (see {@link TurnRecord.interrupted}).
 */
export interface InterruptedRun {
  /**
   * The phase its record was saved in: `asking` (the model was being asked; asked again unless the reply was saved) or
   * `executing` (the program had started: it runs again from its start, so what its calls did outside the store may
   * have happened once per run).
   */
  readonly phase: 'asking' | 'executing';
  /** When the later step continued the turn (ISO time, on that host's clock). */
  readonly at: string;
}

/**
 * How many {@link InterruptedRun}s a record lists: the latest, the older ones counted in `interruptedDropped`, so a
 * turn continued thousands of times (a program that kills every host that runs it) does not grow its record.
 */
export const MAX_INTERRUPTED_KEPT = 20;

/** One `ask` of the turn's run, in the order the run asked, with what it gave the run. */
export interface RecordedAsk {
  /** Its place among the run's asks (from 0). */
  readonly index: number;
  readonly agent: string;
  /** The child session it started (its `parentSid` is this turn's session); absent when it failed before one existed. */
  readonly sid?: string;
  /** The child's DONE result, as the run got it. */
  readonly result?: JsonValue;
  /** Or how the ask failed (the child halted or paused, the agent is unknown, …), as the run saw it thrown. */
  readonly error?: { readonly code?: string; readonly message: string };
  /**
   * What the child loop spent on its models, whatever its end: the asking loop's token and cost ceilings count it
   * (`turnSpend`). Absent when no child loop ran (and in records from before it was kept).
   */
  readonly usage?: AskUsage;
}

/** Tokens and cost spent on models: by a model call, a turn, or an `ask`'s child loop. */
export interface ModelSpend {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
}

/** The model spend of an `ask`'s child loop. */
export type AskUsage = ModelSpend;

/** A failure of the turn (envelope, syntax, check, run, provider), as fed back to the model or halted on. */
export interface TurnFailure {
  /** The stable code (`ERR_ENV_…`, `SCRIPT_…`, `PROVIDER_…`). */
  readonly code: string;
  readonly kind: ScriptErrorKind | 'envelope' | 'provider' | 'approval';
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
  /** The offending ACTIONS line, when there is one. */
  readonly sourceLine?: string;
  /**
   * For a tool call denied for want of a grant (`SCRIPT_TOOL_DENIED`, refused by the check or at run time): the grant
   * that allows it, unquoted as a policy's `grants` entry takes it (`capability`), and the tool host's code of the
   * denial (`code`: `POLICY_CAPABILITY_MISSING`, `HTTP_HOST_DENIED`, `HTTP_ADDRESS_DENIED`). Only the operator can add
   * it, so a host says it to them from here, never by reading `message`. Absent otherwise, when no grant can name the
   * need, and on records from before it was kept.
   */
  readonly grant?: NeededGrant;
}

/** Milliseconds spent per stage of the turn. */
export interface TurnTimings {
  readonly compose?: number;
  readonly model?: number;
  readonly extract?: number;
  readonly prepare?: number;
  readonly approval?: number;
  readonly execute?: number;
  readonly scan?: number;
  readonly persist?: number;
  readonly total?: number;
  /**
   * Busy time of earlier runs of this turn that stopped and were run again
   * (`resume` after a cancel or a failed model call), counted in `total`, so
   * the loop's wall-clock ceiling sees every attempt.
   */
  readonly earlier?: number;
}

/** The control signal found in OUTPUT (v4 marker or v1 control), before ceilings are applied. */
export interface ControlSignal {
  readonly dialect: 'v4' | 'v1';
  /** `done` (v4 marker / v1 done), `continue`, or a v1 `abort` / `halt` / `await`. */
  readonly signal: 'done' | 'continue' | 'abort' | 'halt' | 'await' | 'none';
  readonly result?: string | null;
  readonly reason?: string;
  readonly lints: readonly { readonly code: string; readonly message: string }[];
}

/** One turn, as persisted. */
export interface TurnRecord {
  readonly sid: string;
  readonly loopId: string;
  /** 1-based. */
  readonly turnIndex: number;
  readonly kind: TurnKind;
  readonly phase: TurnPhase;
  /** ISO 8601 times. */
  readonly startedAt: string;
  readonly endedAt?: string;
  /** The system text sent (rules, catalogue, budget). */
  readonly system: string;
  /** The envelope sent. */
  readonly envelope: string;
  readonly reply?: RecordedReply;
  /** Envelope recovery notes (`LINT_…`). */
  readonly lints: readonly { readonly code: string; readonly message: string }[];
  readonly actions?: string;
  readonly diagnostics: readonly Diagnostic[];
  /**
   * The checked program, while the turn runs (hooks and events see it). Never
   * saved: it is derivable from `actions` (a record continued after a crash or
   * an approval prepares its recorded reply again), and its AST is many times
   * the size of the source. Absent from stored and decided records.
   */
  readonly prepared?: PreparedProgram;
  /** The approval gate: why it paused, and what a person decided (with their note). */
  readonly approval?: { readonly state: 'pending' | 'approved' | 'denied'; readonly message: string; readonly decidedAt?: string; readonly note?: string };
  readonly emits: readonly string[];
  /**
   * The source line of the `emit` statement behind each of `emits` (0 where
   * the run did not say), so the scan can tell a marker the program wrote
   * from one in data it only passed on. Absent on records from before.
   */
  readonly emitLines?: readonly number[];
  readonly whispers: readonly { readonly target: string; readonly text: string }[];
  /** OUTPUT of this turn (every emit + `\n`), or the SYSTEM_ERROR text fed back after a failure. */
  readonly output: string;
  readonly scratchpad: string;
  readonly toolCalls: readonly RecordedToolCall[];
  /**
   * The form `toolCalls` were written in: 2 (`TOOL_CALLS_VERSION`, tool-calls-version.ts) since a call still out
   * when the run ended is kept, marked `unfinished`; every run writes it with its calls. Absent on records from before
   * (and on a turn whose program never ran): those left such a call out or showed only its error, and replay compares
   * them as written.
   */
  readonly toolCallsVersion?: number;
  /**
   * The calls still out when an earlier run of this turn ended — the ones `resume` found unfinished when it ran the
   * turn again (after a cancel), oldest run first — each with the run that made it: `toolCalls` holds the latest
   * run's calls only, and such a call may have acted. Absent when no earlier run left one (and on records from
   * before it was kept). Not a call of this run: `usage.toolCalls` leaves it out, and replay, which runs each turn
   * once, neither makes nor compares it; the policy's call limits count it, per session and in the turn's new run (it started, and may have acted).
   */
  readonly earlierUnfinished?: readonly EarlierUnfinishedCall[];
  /**
   * Every `ask` of this turn's run, in order, with the child session it started and what it gave the run; absent
   * when the run asked nothing (and in records from before it was kept). Replay answers each `ask` from here, not
   * from the child sessions: a run that was cut short and run again after a crash leaves the children of its first
   * attempt behind, and a child resumed later no longer says what it answered.
   */
  readonly asks?: readonly RecordedAsk[];
  /**
   * The runs of this turn that stopped mid-turn with nothing of their end saved, oldest first, each as the step that
   * continued the turn found it: a host killed or frozen mid-turn, a worker whose lease was taken over, a step that
   * failed. Absent when every run of the turn got to save its end (and on records from before it was kept). Their
   * tool calls are not in the record (only what a run saves is), but from `executing` the program ran at least once
   * before this run: a call with effects outside the store (an HTTP request, a file, an API) may have acted once per
   * run. Not counted in `reruns`, which counts the runs `resume` reopened after a HALT.
   */
  readonly interrupted?: readonly InterruptedRun[];
  /**
   * How many more such runs there were, before those `interrupted` lists: it keeps the latest
   * {@link MAX_INTERRUPTED_KEPT}. Absent when it lists them all.
   */
  readonly interruptedDropped?: number;
  readonly error?: ScriptErrorData;
  readonly failure?: TurnFailure;
  readonly usage: { readonly fuel: number; readonly toolCalls: number; readonly inputTokens: number; readonly outputTokens: number; readonly costUsd: number };
  readonly timings: TurnTimings;
  /**
   * How many times `resume` reopened this turn after it halted where it may
   * run again (cancelled, or its model call failed); absent when it never was.
   * Its earlier runs' busy time is in `timings.earlier`.
   */
  readonly reruns?: number;
  /** `progressDigest(OUTPUT, SCRATCHPAD)` (seed 002 §6), or null when nothing ran. */
  readonly digest: string | null;
  readonly control?: ControlSignal;
  readonly decision?: LoopDecision;
}

/** The decision-log entry of a decided turn (seed 002 §9, seed 003 §10). */
export interface DecisionLogEntry {
  readonly ts: string;
  readonly sid: string;
  readonly loop_id: string;
  readonly turn_index: number;
  readonly decision: 'CONTINUE' | 'DONE' | 'HALT' | 'PAUSE';
  readonly reason: string | null;
  readonly latency_ms: number;
  readonly model_latency_ms: number;
  readonly output_bytes: number;
  readonly scratch_bytes: number;
  readonly final_result?: string | null;
}
