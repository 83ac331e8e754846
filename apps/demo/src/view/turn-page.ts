/**
 * One page of a session's turns, as the viewer sends them: the latest
 * {@link PAGE_TURNS} (or those before a turn), each cut to its limits
 * (bound-turn.ts), and as many of them, newest first, as fit in
 * {@link PAGE_CHARS}. A session of 10,000 turns was sent whole: 105 MB of
 * JSON; 1,100 turns of a 512 KiB OUTPUT could not be sent at all.
 */
import { listTurnRange, MAX_TURN_INDEX, type TranscriptStore, type TurnRecord } from '@askloop/controller';
import { readTurnNumber } from '../turn-number.ts';
import { boundTurn, type BoundedTurn, type TurnLimits } from './bound-turn.ts';

/** How many turns one page holds at most. */
export const PAGE_TURNS = 50;

/** The JSON characters the turns of one page hold at most (one turn is always sent, however long: it is cut to its limits). */
export const PAGE_CHARS = 2 * 1024 * 1024;

/** Where a page stands in its session. */
export interface TurnPageInfo {
  /** The first and last turn index of the page (null when it has none). */
  readonly from: number | null;
  readonly to: number | null;
  /** How many turns come before it (turns are numbered from 1 without gaps): `?before=FROM` reads them, a page at a time. */
  readonly earlier: number;
}

/** A page: its turns, in index order, and where it stands. */
export interface TurnPage {
  readonly turns: readonly BoundedTurn[];
  readonly page: TurnPageInfo;
}

/** How a page is cut (the defaults: {@link PAGE_TURNS}, {@link PAGE_CHARS} and bound-turn.ts's limits). */
export interface PageLimits {
  readonly turns?: number;
  readonly chars?: number;
  readonly turn?: TurnLimits;
}

/**
 * `turns` (in index order, the latest of a stretch) as a page: each redacted,
 * then cut, and the oldest left out while the rest pass `limits.chars`.
 */
export function pageOfTurns(turns: readonly TurnRecord[], redact: (value: unknown) => unknown, limits: PageLimits = {}): TurnPage {
  const budget = limits.chars ?? PAGE_CHARS;
  const kept: BoundedTurn[] = [];
  let size = 0;
  for (let index = turns.length - 1; index >= 0; index--) {
    // Redacted before it is cut: a cut through a key would leave a start of it that no redaction recognises.
    const turn = boundTurn(redact(turns[index]) as TurnRecord, limits.turn);
    size += JSON.stringify(turn).length;
    if (kept.length > 0 && size > budget) break;
    kept.unshift(turn);
  }
  const from = kept[0]?.turnIndex ?? null;
  return { turns: kept, page: { from, to: kept.at(-1)?.turnIndex ?? null, earlier: from === null ? 0 : from - 1 } };
}

/** The page of `sid`'s turns before turn `before` (the latest without it), read by a ranged read. */
export async function readTurnPage(store: Pick<TranscriptStore, 'listTurns' | 'listTurnRange'>, sid: string, before: number | undefined, redact: (value: unknown) => unknown, limits: PageLimits = {}): Promise<TurnPage> {
  if (before === 1) return { turns: [], page: { from: null, to: null, earlier: 0 } };
  const last = limits.turns ?? PAGE_TURNS;
  return pageOfTurns(await listTurnRange(store, sid, before === undefined ? { last } : { to: before - 1, last }), redact, limits);
}

/** A turn index in a query or a path (`before=951`, `/turns/7`): a whole number from 1 to 2^31 − 1, or an error saying so. */
export function parseTurnIndex(name: string, text: string): number | { readonly error: string } {
  const value = readTurnNumber(text);
  if (value === undefined) return { error: `${name} must be a turn number, a whole number from 1 to ${MAX_TURN_INDEX}, got ${JSON.stringify(text.slice(0, 40))}` };
  return value;
}
