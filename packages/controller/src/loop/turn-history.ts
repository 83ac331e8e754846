/**
 * What a turn knows of its session's past: the stored session row (saved
 * again with the turn's decided or paused record), the tally of the decided
 * turns before it, and the turn just before it (whose OUTPUT and SCRATCHPAD
 * feed the next envelope). Nothing older: a turn never reads earlier records.
 */
import type { LoopTally } from '../decide/loop-tally.ts';
import type { SessionRecord } from '../store/transcript-store.ts';
import type { TurnRecord } from './turn-record.ts';

/** The past of the turn about to run (or continue). */
export interface TurnHistory {
  readonly session: SessionRecord;
  /** The decided turns before this one. */
  readonly tally: LoopTally;
  /** The decided turn before this one; needed only to compose a new turn. */
  readonly previous?: TurnRecord;
}
