/**
 * A stretch of a session's turns, read without the rest: the viewer shows a
 * 10,000-turn session a page at a time, and `listTurns` would read (and hold)
 * every record of it to show fifty.
 */
import { LoopError } from '../errors/loop-error.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import { MAX_TURN_INDEX, requireSessionId } from './store-keys.ts';
import type { TranscriptStore } from './transcript-store.ts';

/**
 * Which turns {@link TranscriptStore.listTurnRange} reads: those whose index
 * is from `from` to `to` (both included; either end left out is open), and of
 * those only the `last` ones when it is given. `from` after `to` is an empty
 * range, not an error.
 */
export interface TurnRange {
  /** The lowest turn index read (default 1): a whole number from 1 to 2^31 − 1. */
  readonly from?: number;
  /** The highest turn index read (default: the session's last): a whole number from 1 to 2^31 − 1. */
  readonly to?: number;
  /** At most this many turns, the latest of the range (still in index order): a whole number from 1 to 2^31 − 1. */
  readonly last?: number;
}

const RANGE_KEYS = ['from', 'to', 'last'] as const;

/**
 * Throws `LOOP_ARGUMENT_INVALID` naming `listTurnRange` for a range no store
 * can take: not an object, a key other than `from`, `to` and `last` (a
 * misspelt bound would otherwise read every turn), or a bound that is not a
 * whole number from 1 to 2^31 − 1.
 */
export function requireTurnRange(range: TurnRange): void {
  const invalid = (message: string) => new LoopError({ code: 'LOOP_ARGUMENT_INVALID', message: `listTurnRange: ${message}` });
  if (range === null || typeof range !== 'object') throw invalid(`the range must be an object such as { from: 1, to: 50 }, got ${range === null ? 'null' : typeof range}`);
  const unknown = Object.keys(range).find((key) => !(RANGE_KEYS as readonly string[]).includes(key));
  if (unknown !== undefined) throw invalid(`unknown option ${JSON.stringify(unknown)}; the options are ${RANGE_KEYS.join(', ')}`);
  for (const key of RANGE_KEYS) {
    const value: unknown = range[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TURN_INDEX)) {
      throw invalid(`${key} must be a whole number from 1 to ${MAX_TURN_INDEX} (2^31 − 1) or left out, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
    }
  }
}

/** The turns of `turns` (in index order) that `range` takes, in index order: what a store without a ranged read gives. */
export function turnsInRange(turns: readonly TurnRecord[], range: TurnRange): TurnRecord[] {
  const from = range.from ?? 1;
  const to = range.to ?? MAX_TURN_INDEX;
  const taken = turns.filter((turn) => turn.turnIndex >= from && turn.turnIndex <= to);
  return range.last === undefined ? taken : taken.slice(Math.max(0, taken.length - range.last));
}

/**
 * The turns of `sid` that `range` takes, in index order, from any store: its
 * own `listTurnRange` when it has one (the built-in stores read only those
 * rows), else every turn from `listTurns`, filtered. Refuses a bad id or
 * range with `LOOP_ARGUMENT_INVALID`, whichever way it reads.
 */
export async function listTurnRange(store: Pick<TranscriptStore, 'listTurns' | 'listTurnRange'>, sid: string, range: TurnRange): Promise<readonly TurnRecord[]> {
  requireSessionId(sid, 'listTurnRange');
  requireTurnRange(range);
  if (store.listTurnRange !== undefined) return store.listTurnRange(sid, range);
  return turnsInRange(await store.listTurns(sid), range);
}
