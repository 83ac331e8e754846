/**
 * Which of a stored session's turns `askloop show` prints: `--turn N`,
 * `--turn N..M`, `--turn N..` or `--turn ..M` (turns are numbered from 1, as
 * `show` heads them; the option may be repeated), and `--last N`. A session
 * of fifty turns printed whole pushes the one a person is looking for off
 * screen.
 */
import { usageError, type CliError } from '../cli-error.ts';
import { readTurnNumber } from '../turn-number.ts';

/** One `--turn` value: the first and last turn numbers it takes, both included. */
export interface TurnRange {
  readonly first: number;
  readonly last: number;
}

/** What `--turn` and `--last` asked for; `undefined` fields ask for nothing. */
export interface TurnSelection {
  readonly ranges?: readonly TurnRange[];
  readonly last?: number;
}

function badTurn(value: string): CliError {
  return usageError(`--turn takes a turn number or a range of them (3, 3..7, 40.., ..5; turns count from 1), got '${value}'`);
}

/** The turn number in `text` (a `--turn` part), or undefined when it is empty (an open end). */
function turnNumber(text: string, value: string): number | undefined {
  if (text === '') return undefined;
  const turn = readTurnNumber(text);
  if (turn === undefined) throw badTurn(value);
  return turn;
}

/** Reads one `--turn` value. */
export function parseTurnRange(value: string): TurnRange {
  const parts = value.trim().split('..');
  if (parts.length > 2) throw badTurn(value);
  const [from = '', to] = parts;
  const first = turnNumber(from, value);
  if (to === undefined) {
    if (first === undefined) throw badTurn(value);
    return { first, last: first };
  }
  const last = turnNumber(to, value);
  if (first === undefined && last === undefined) throw badTurn(value);
  const range = { first: first ?? 1, last: last ?? Number.POSITIVE_INFINITY };
  if (range.first > range.last) throw usageError(`--turn ${value} ends before it starts; write the lower number first (${range.last}..${range.first})`);
  return range;
}

/** Reads `--last`. */
export function parseLastCount(value: string): number {
  const count = readTurnNumber(value.trim());
  if (count === undefined) throw usageError(`--last takes how many of the latest turns to print, a whole number from 1, got '${value}'`);
  return count;
}

/**
 * The turns of `turns` (in order, numbered by `turnIndex`) that `selection`
 * asks for, once each and in order; all of them when it asks for nothing.
 * A selection that matches no turn is a usage error naming the turns there
 * are, so a typo is not read as "this session has no such turns yet".
 */
export function selectTurns<T extends { readonly turnIndex: number }>(turns: readonly T[], selection: TurnSelection, sid: string): T[] {
  const { ranges, last } = selection;
  if (ranges === undefined && last === undefined) return [...turns];
  const inRanges = ranges === undefined ? turns : turns.filter((turn) => ranges.some((range) => turn.turnIndex >= range.first && turn.turnIndex <= range.last));
  const chosen = last === undefined ? [...inRanges] : inRanges.slice(Math.max(0, inRanges.length - last));
  if (chosen.length === 0) {
    const there = turns.length === 0 ? 'no turns yet' : `turns ${turns[0]?.turnIndex ?? 1}..${turns.at(-1)?.turnIndex ?? turns.length}`;
    throw usageError(`session ${sid} has ${there}; ${ranges === undefined ? '--last' : '--turn'} asks for none of them`);
  }
  return chosen;
}
