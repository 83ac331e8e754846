/**
 * A session's tool-call counter as a controller keeps it between steps, for a
 * session whose policy limits calls per session. The counter notes the stored
 * state it counts: the decided turns (how many, their tool calls in the
 * session's tally) and the last turn (its index, how often it was re-run).
 * Each step compares that with the session row and the last turn it reads
 * anyway, inside the session's gate and lease: when they differ — another
 * host stepped the session meanwhile (workers taking turns of one session),
 * or this controller has not stepped it yet (a restart, `askloop approve`, a
 * counter dropped by `sessionCacheSize`) — the counter is rebuilt from the
 * stored turns before the turn runs. A host stepping a session alone reads no
 * earlier turns for it. A step that throws leaves the counter unknown
 * (`counterUnsettled`): its run counted calls whose record may never be
 * stored, so the next step rebuilds it.
 */
import type { CallCounter } from '@askloop/tools';
import { createCallCounter } from '@askloop/tools';
import type { LoopTally } from '../decide/loop-tally.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import type { TranscriptStore } from '../store/transcript-store.ts';
import { countedCalls } from './counted-calls.ts';

/** Where each kept counter stands: the stamp of the stored state it counts (undefined: not known yet). */
const stamps = new WeakMap<CallCounter, { stamp: string | undefined }>();

/**
 * The stored state a counter counts, as a step reads it: the decided turns (only decided records hold tool calls
 * and asks) and the last turn. Another host's step decides a turn (the tally's turn goes up) or re-runs the last one
 * (its `reruns` goes up); an approval changes neither the calls nor these.
 */
function stampOf(last: TurnRecord | undefined, tally: LoopTally): string {
  return `${tally.turn}/${tally.totals.toolCalls}/${last?.turnIndex ?? 0}/${last?.reruns ?? 0}`;
}

/** A new counter for a session whose policy limits calls per session: its first step brings it up to date. */
export function createKeptCounter(): CallCounter {
  const counter = createCallCounter();
  stamps.set(counter, { stamp: undefined });
  return counter;
}

/** Replaces what `counter` counts with what `from` counts (the same object: the session's contexts hold it). */
function recount(counter: CallCounter, from: CallCounter): void {
  counter.total = from.total;
  counter.perTool.clear();
  for (const [name, count] of from.perTool) counter.perTool.set(name, count);
}

/**
 * Before a step runs a turn: brings a kept `counter` up to date with session `sid` as the step read it (its last turn
 * and the tally of its decided turns). Reads the stored turns only when they changed since the counter last counted
 * them; a counter that is not kept (a replay's, one of a session without per-session limits) is left alone.
 */
export async function keepCounterCurrent(counter: CallCounter, store: TranscriptStore, sid: string, last: TurnRecord | undefined, tally: LoopTally): Promise<void> {
  const kept = stamps.get(counter);
  if (kept === undefined) return;
  const stamp = stampOf(last, tally);
  if (kept.stamp === stamp) return;
  // No turn stored: nothing was counted yet (a new session), and there is nothing to read.
  recount(counter, last === undefined ? createCallCounter() : countedCalls(await store.listTurns(sid)));
  kept.stamp = stamp;
}

/** After a step: a kept `counter` counts the calls of the session up to `last`, the turn the step left, after `tally`. */
export function counterStepped(counter: CallCounter, last: TurnRecord, tally: LoopTally): void {
  const kept = stamps.get(counter);
  if (kept !== undefined) kept.stamp = stampOf(last, tally);
}

/**
 * After a step that threw: a kept `counter` counted its run's calls as they were made, but the run's record may never
 * be stored (a worker's step rolled back, a lost lease, a failed save), so what the store holds is unknown to it: the
 * next step rebuilds it from the stored turns, as any other host would. Kept, a run that failed twice on one host
 * left its calls counted, and the next run on that host was refused a call a per-session limit allowed once.
 */
export function counterUnsettled(counter: CallCounter): void {
  const kept = stamps.get(counter);
  if (kept !== undefined) kept.stamp = undefined;
}
