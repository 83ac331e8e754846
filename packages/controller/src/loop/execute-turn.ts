/**
 * Runs a prepared program in a fresh sandbox context with the agent's
 * per-turn quotas (capped by what is left of the loop's totals), streaming
 * emits, whispers and tool calls as events, and records what it did.
 */
import { followSignal } from '@askloop/providers';
import { DEFAULT_LIMITS, toolsAtRunStart, type JsonValue, type LocalTools, type RunLimits } from '@askloop/interpreter';
import { progressDigest } from '@askloop/envelope';
import type { CallCounter } from '@askloop/tools';
import { wallClockLeft, type LoopTotals } from '../decide/stop-condition.ts';
import { turnSpend } from '../decide/turn-spend.ts';
import type { LoopCeilings } from '../agent/agent-definition.ts';
import type { AskCall, LoopToolBridge, PreparedProgram } from '../interpreter/loop-interpreter.ts';
import { withCeilingNote } from './ceiling-limit-note.ts';
import { isoNow, type AskBudget, type LoopContext } from './loop-context.ts';
import { sourceLineOf, systemErrorLine } from './system-error-output.ts';
import { trackCallsInFlight, unfinishedNote, type CallsInFlight } from './call-in-flight.ts';
import { TOOL_CALLS_VERSION } from './tool-calls-version.ts';
import type { AskUsage, RecordedAsk, RecordedToolCall, TurnFailure, TurnRecord, UnfinishedToolCall } from './turn-record.ts';

/** What execution adds to the record. */
export type ExecutePatch = Pick<TurnRecord, 'emits' | 'emitLines' | 'whispers' | 'output' | 'scratchpad' | 'toolCalls' | 'toolCallsVersion' | 'digest'> &
  Partial<Pick<TurnRecord, 'asks' | 'error' | 'failure'>> & { readonly fuel: number; readonly toolCallCount: number };

/**
 * The run's quotas: the agent's per-turn quotas, capped by the loop totals
 * still left. `spentMs`: the loop's wall clock this turn has spent already
 * (composing, the model, the check), which the run's time is capped by too.
 */
export function turnLimits(context: LoopContext, totals: LoopTotals, spentMs = 0): Partial<RunLimits> {
  const { quotas, ceilings } = context.agent;
  const cap = (quota: number | undefined, fallback: number, left: number | undefined): number => Math.max(0, Math.min(quota ?? fallback, left ?? Infinity));
  return {
    ...quotas,
    fuel: cap(quotas.fuel, DEFAULT_LIMITS.fuel, ceilings.fuel === undefined ? undefined : ceilings.fuel - totals.fuel),
    toolCalls: cap(quotas.toolCalls, DEFAULT_LIMITS.toolCalls, ceilings.toolCalls === undefined ? undefined : ceilings.toolCalls - totals.toolCalls),
    wallMs: cap(quotas.wallMs, DEFAULT_LIMITS.wallMs, wallClockLeft(totals, ceilings, spentMs)),
  };
}

/**
 * How long after the run's wall clock the tools' deadline falls: late enough
 * that a call cut there finds the run already over its time (SCRIPT_TIMEOUT,
 * not a tool error), early enough to come before the sandbox's own backstop
 * (250 ms after the wall clock), so the same slow turn always ends the same way.
 */
const TOOL_DEADLINE_GRACE_MS = 50;

/**
 * Why the tools of a finished run are stopped; one instance, since `abort()`
 * without a reason builds a DOMException (stack trace and all) each time.
 * Shared by every run: a tool that added properties to `signal.reason` would
 * add them for all (none of ours does; it is not frozen, so one that tries
 * does not throw).
 */
const RUN_ENDED = new DOMException('the turn\'s run has ended', 'AbortError');

/** What the turn's tool host gets from the run: cancelled when the run ends, and no call past its deadline. */
export interface RunBounds {
  readonly signal: AbortSignal;
  /** Epoch ms on the context's clock: the run's start plus its `wallMs` and the grace. */
  readonly deadline: number;
  /**
   * The same grace, for a call the run says how much time it has left for:
   * that call may run until now + its `timeLeftMs` + this when that is later
   * than `deadline`, so a stall of the host the run did not count does not
   * shorten it.
   */
  readonly deadlineGraceMs: number;
  /** Tool results longer than the run's `stringLength` are refused before they are built. */
  readonly maxResultLength: number;
  /** Tool results with a list or map over the run's `collectionSize` are refused (before they are built where a tool can count). */
  readonly maxResultItems: number;
}

/** What the record says of a tool besides its canonical name. */
export interface ToolFacts {
  /** The name as its catalogue writes it, recorded beside the canonical one for people to read. */
  readonly displayName?: string;
  /** Its declared effect, recorded on a call still out when the run ended. */
  readonly effect?: UnfinishedToolCall['effect'];
}

/**
 * Executes `prepared` for the turn `record` with the tools `toolsFor` gives for the run's bounds; `totals`: the loop's
 * before this turn; `turnCounter`: the per-turn call counter those tools count in, where the run's asks count too;
 * `toolFacts`: what the registry says of a tool (its catalogue spelling, its effect); `localTools`: pure tools the
 * sandbox worker answers itself, booked on the tools `toolsFor` gives (which must then be a tool host).
 */
export async function executeTurn(
  context: LoopContext,
  record: TurnRecord,
  prepared: PreparedProgram,
  toolsFor: (bounds: RunBounds) => LoopToolBridge,
  totals: LoopTotals,
  turnCounter: CallCounter,
  toolFacts: (name: string) => ToolFacts = () => ({}),
  localTools?: LocalTools,
): Promise<ExecutePatch> {
  // A replay counts the recorded turn's times, so its run gets the limit the live run had (its model answers at once).
  const timings = context.recordedTimings?.(record) ?? record.timings;
  const limits = turnLimits(context, totals, (timings.compose ?? 0) + (timings.model ?? 0) + (timings.prepare ?? 0));
  // Ends with the run, so no tool call outlives it (or keeps the process alive).
  const runEnded = new AbortController();
  // Aborts with the caller's signal too; followed, not composed (`followSignal`, `@askloop/providers`).
  const unfollow = followSignal(context.signal, runEnded);
  const { signal } = runEnded;
  /** When the run's wall clock runs out, on the context's clock (set as the run starts). */
  let timeEnds = Number.POSITIVE_INFINITY;
  // The tools are made when a sandbox worker takes the run, so their deadline counts from the run's own start,
  // as its wall clock does — not from before a wait in the pool's queue.
  const maxResultLength = limits.stringLength ?? DEFAULT_LIMITS.stringLength;
  const maxResultItems = limits.collectionSize ?? DEFAULT_LIMITS.collectionSize;
  const { call, onStart, recordLocalCall } = toolsAtRunStart(() => {
    timeEnds = context.clock.now() + (limits.wallMs ?? DEFAULT_LIMITS.wallMs);
    return toolsFor({ signal, deadline: timeEnds + TOOL_DEADLINE_GRACE_MS, deadlineGraceMs: TOOL_DEADLINE_GRACE_MS, maxResultLength, maxResultItems });
  });
  // The call out when the run ends is kept, unfinished (call-in-flight.ts): also one the tool host cut at the run's
  // deadline, which ends after the run's time is up (its outcome the program never sees: it stops at its clock check).
  const inFlight = trackCallsInFlight(call, signal, () => context.clock.now() >= timeEnds);
  try {
    const tools: LoopToolBridge = localTools === undefined ? { call: inFlight.call } : { call: inFlight.call, recordLocalCall };
    // The worker's answers held to the tool host's bounds too: the interpreter's own quotas may allow longer results.
    const local = localTools === undefined ? undefined : { ...localTools, limits: { stringLength: maxResultLength, collectionSize: maxResultItems } };
    return await runProgram(context, record, prepared, tools, limits, onStart, turnCounter, { inFlight, toolFacts, localTools: local }, { ceilings: context.agent.ceilings, totals, record });
  } finally {
    unfollow();
    runEnded.abort(RUN_ENDED);
  }
}

async function runProgram(
  context: LoopContext,
  record: TurnRecord,
  prepared: PreparedProgram,
  tools: LoopToolBridge,
  limits: Partial<RunLimits>,
  onStart: () => void,
  turnCounter: CallCounter,
  calls: { readonly inFlight: CallsInFlight; readonly toolFacts: (name: string) => ToolFacts; readonly localTools: LocalTools | undefined },
  budget: TurnBudget,
): Promise<ExecutePatch> {
  const toolCalls: RecordedToolCall[] = [];
  /** The index of a call reported after the run's time was up (cut at its deadline), while it is the last one. */
  let lateCall: number | undefined;
  const asks: RecordedAsk[] = [];
  /** Each ask's call, settled either way: a child still out when the run ends is waited for (`spendOfAsksOut`). */
  const asking: Promise<unknown>[] = [];
  let runOver = false;
  const whispers: { target: string; text: string }[] = [];
  const base = { sid: record.sid, loopId: record.loopId, turnIndex: record.turnIndex };
  /** Records a call in its place and announces it: `outcome` its result or error, `unfinished` when it was still out. */
  const recordCall = (name: string, args: readonly JsonValue[], durationMs: number, outcome: Pick<RecordedToolCall, 'result' | 'error'>, unfinished?: RecordedToolCall['unfinished']): void => {
    const shown = calls.toolFacts(name).displayName;
    const call: RecordedToolCall = {
      index: toolCalls.length,
      name,
      ...(shown === undefined || shown === name ? {} : { displayName: shown }),
      args,
      ...outcome,
      durationMs: Math.round(durationMs),
      ...(unfinished === undefined ? {} : { unfinished }),
    };
    toolCalls.push(call);
    context.emit({ type: 'tool-call', ...base, ts: isoNow(context), call });
  };
  const result = await context.interpreter.execute(prepared, {
    tools,
    ...(calls.localTools === undefined ? {} : { localTools: calls.localTools }),
    onStart,
    limits,
    ...(context.signal === undefined ? {} : { signal: context.signal }),
    userdata: context.session.userdata,
    // With userdata, the names PROGRAM_GLOBALS lists for the check (program-globals.ts).
    globals: { sid: record.sid, turn_index: record.turnIndex },
    // Only where the check allowed `ask` (the agent lists agents to ask): no other program holds one, and a bare
    // `createInterpreter()` given as the loop's interpreter, which refuses the option, then runs every such agent.
    ...(context.ask === undefined || context.agent.asks.length === 0 ? {} : { ask: askFor(context.ask, record.turnIndex, turnCounter, asks, budget, asking) }),
    onEmit: (text) => context.emit({ type: 'emit', ...base, ts: isoNow(context), text }),
    onWhisper: (target, text) => {
      whispers.push({ target, text });
      context.emit({ type: 'whisper', ...base, ts: isoNow(context), target, text });
    },
    onToolCall: (observed) => {
      if (runOver) return;
      // Reported only after the run ended for it (the tool stopped late): recorded below as unfinished.
      const timing = calls.inFlight.reported();
      if (timing === 'after-end') return;
      lateCall = timing === 'after-time' ? toolCalls.length : undefined;
      recordCall(observed.name, observed.args, observed.durationMs, {
        ...(observed.result === undefined ? {} : { result: observed.result as JsonValue }),
        ...(observed.error === undefined ? {} : { error: { code: observed.error.code, message: observed.error.message, ...(observed.error.grant === undefined ? {} : { grant: observed.error.grant }) } }),
      });
    },
  });
  let output = result.output;
  let failure: TurnFailure | undefined;
  if (result.error !== null) {
    const error = result.error;
    failure = withCeilingNote(
      {
        code: error.code,
        kind: error.kind,
        message: error.message,
        ...(error.line > 0 ? { line: error.line, column: error.column } : {}),
        ...(sourceLineOf(record.actions, error.line) === undefined ? {} : { sourceLine: sourceLineOf(record.actions, error.line) as string }),
        ...(error.grant === undefined ? {} : { grant: error.grant }),
      },
      context.agent,
      limits,
    );
    // A run-time error goes back to the model as a SYSTEM_ERROR line after what the program emitted.
    if (failure.kind === 'runtime' || failure.kind === 'internal') output += `${systemErrorLine(failure)}\n`;
  }
  // A call still out when the run ended (cancelled, out of time) is kept in its place, marked: it may have acted.
  const out = calls.inFlight.unfinished();
  runOver = true;
  const late = lateCall === undefined ? undefined : toolCalls[lateCall];
  if (out === undefined && late !== undefined && lateCall === toolCalls.length - 1 && failure?.kind === 'timeout') {
    // Cut by the tool host at the run's deadline, and the run ended out of time before the program saw it: its
    // error stays (what the tool host said), and it may have acted all the same.
    toolCalls[lateCall] = { ...late, unfinished: unfinishedNote(calls.toolFacts(late.name).effect, true) };
  }
  if (out !== undefined) recordCall(out.name, out.args, performance.now() - out.startedAt, {}, unfinishedNote(calls.toolFacts(out.name).effect));
  const recordedAsks = await spendOfAsksOut(asks, asking);
  return {
    emits: result.emits,
    ...(result.emitLines === undefined ? {} : { emitLines: result.emitLines }),
    whispers,
    output,
    scratchpad: result.scratchpad,
    toolCalls: [...toolCalls],
    // Says these calls keep one still out when the run ended: replay reads a record without it as written before.
    toolCallsVersion: TOOL_CALLS_VERSION,
    ...(recordedAsks.length === 0 ? {} : { asks: recordedAsks }),
    digest: progressDigest(output, result.scratchpad),
    ...(result.error === null ? {} : { error: result.error }),
    ...(failure === undefined ? {} : { failure }),
    fuel: result.usage.fuel,
    toolCallCount: result.usage.toolCalls,
  };
}

/**
 * How long a run that ended with an `ask` still out (cancelled, out of time, a lost lease) waits for its child loop,
 * which the run's end cancelled, to settle and say what it spent. A child's model call settles within
 * `ABORT_SETTLE_MS` of its abort, its run at once; this bounds a child that does not.
 */
export const ASK_SETTLE_MS = 2000;

/**
 * The run's asks as the record keeps them: each with the outcome the run saw (copies: an ask the run gave up on may
 * still settle later, and must not change a saved record), and the spend of the children the run's end left out.
 * Their spend is the asking loop's all the same (the ceilings count it): the run's end cancelled them, and once one
 * settles — within {@link ASK_SETTLE_MS} — its spend is recorded; its outcome stays what the run saw (none), so a
 * replay ends the run as the live one ended.
 */
async function spendOfAsksOut(asks: readonly RecordedAsk[], asking: readonly Promise<unknown>[]): Promise<RecordedAsk[]> {
  const seen = asks.map((ask) => ({ ...ask }));
  if (seen.every((ask) => ask.result !== undefined || ask.error !== undefined)) return seen;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(asking), new Promise<void>((resolve) => (timer = setTimeout(resolve, ASK_SETTLE_MS)))]);
  clearTimeout(timer);
  return seen.map((ask, index) => {
    const usage = asks[index]?.usage;
    return ask.usage === undefined && usage !== undefined ? { ...ask, usage } : ask;
  });
}

/**
 * The run's `ask`: the context's, with each call noted in `asks` in order, with the child it started, its outcome
 * and what it spent, and its promise, settled either way, in `asking`. Each ask gets what is left of the loop's token
 * and cost ceilings after the turn's spend so far (`turnSpend`: its own model call and its earlier asks).
 */
function askFor(
  ask: NonNullable<LoopContext['ask']>,
  turnIndex: number,
  turnCounter: CallCounter,
  asks: RecordedAsk[],
  budget: TurnBudget,
  asking: Promise<unknown>[],
): (call: AskCall) => Promise<JsonValue> {
  return (call) => {
    const answer = askOnce(ask, turnIndex, turnCounter, asks, budget, call);
    asking.push(answer.then(() => undefined, () => undefined));
    return answer;
  };
}

/** One `ask` of the run (see {@link askFor}). */
async function askOnce(
  ask: NonNullable<LoopContext['ask']>,
  turnIndex: number,
  turnCounter: CallCounter,
  asks: RecordedAsk[],
  budget: TurnBudget,
  call: AskCall,
): Promise<JsonValue> {
  const asked: Mutable<RecordedAsk> = { index: asks.length, agent: call.agent };
  const { ceilings, totals, record } = budget;
  const spend = turnSpend({ ...record, asks });
  const left: AskBudget = {
    ...(ceilings.tokens === undefined ? {} : { tokens: ceilings.tokens - totals.inputTokens - totals.outputTokens - spend.inputTokens - spend.outputTokens }),
    ...(ceilings.costUsd === undefined ? {} : { costUsd: ceilings.costUsd - totals.costUsd - spend.costUsd }),
  };
  asks.push(asked);
  const ended = (usage: AskUsage): void => {
    asked.usage = usage;
  };
  try {
    asked.result = await ask(call, { turnIndex, index: asked.index, started: (sid) => (asked.sid = sid), turnCounter, ended, budgetLeft: left });
    return asked.result;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    asked.error = { ...(typeof code === 'string' ? { code } : {}), message: error instanceof Error ? error.message : String(error) };
    throw error;
  }
}

/** What an ask's share of the loop's ceilings is worked out from: the ceilings, the loop's totals before this turn, the turn. */
interface TurnBudget {
  readonly ceilings: LoopCeilings;
  readonly totals: LoopTotals;
  readonly record: TurnRecord;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
