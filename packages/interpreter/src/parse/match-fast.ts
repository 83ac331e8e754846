/**
 * The happy path of matching: the matcher generated from the grammar
 * (`src/grammar/generate-matcher.ts`), which builds the same concrete syntax
 * tree as Ohm 17 about twenty times faster. It answers only when it matches;
 * on a syntax error, a nesting deeper than the limit, a work budget spent
 * (input that makes a backtracking matcher slow) or a stack overflow it
 * answers `undefined`, and the caller matches again with Ohm, whose result
 * and messages are then exactly today's (decision 0004).
 */
import { matchFast as generatedMatch } from '../grammar/neuroscript-matcher.generated.js';
import type { Cst } from './ohm-internals.ts';

/**
 * The grammar's start rules: a script, the inside of a `{{…}}` hole, and
 * logical lines alone (`Line`, `Lines`, `StatementLine`: the further syntax
 * errors of a script that does not match).
 */
export type StartRule = 'Program' | 'Interpolation' | 'Line' | 'Lines' | 'StatementLine';

/**
 * Work allowed per character of input: each rule application, loop iteration
 * and character read by a character loop costs one. Real programs need at
 * most about five; the budget only stops inputs that would make a
 * backtracking matcher slow (many rules tried at one place, or an unclosed
 * `[[` string re-read from every `[[`), which Ohm's memoizing matcher then
 * answers instead.
 */
export const CALLS_PER_CHARACTER = 40;
const CALLS_MINIMUM = 2000;

/**
 * Matches `text` from `startRule` with the generated matcher; the root node
 * and its offset, or `undefined` (match with Ohm instead). `callsPerCharacter`
 * sets the budget (default `CALLS_PER_CHARACTER`).
 */
export function matchFast(text: string, startRule: StartRule, nestingLimit: number, callsPerCharacter = CALLS_PER_CHARACTER): [Cst, number] | undefined {
  const outcome = attempt(text, startRule, nestingLimit, callsPerCharacter);
  return typeof outcome === 'string' ? undefined : outcome;
}

/**
 * `matchFast` telling its two failures apart: `'no match'` when the text does
 * not match (Ohm fails too: without a budget or a limit in the way both
 * matchers decide the same grammar), `'gave up'` on a spent budget, the
 * nesting limit or a stack overflow (only Ohm can answer). A caller that needs
 * no message (a `{{…}}` hole) can skip Ohm on `'no match'`.
 */
export function matchFastOutcome(text: string, startRule: StartRule, nestingLimit: number, callsPerCharacter = CALLS_PER_CHARACTER): [Cst, number] | 'no match' | 'gave up' {
  const outcome = attempt(text, startRule, nestingLimit, callsPerCharacter);
  // Ohm also tries the alternatives the first-character guards skip here, and one of those can apply a
  // nesting rule once more before it fails: a failure that came within one level of the limit may be a
  // nesting stop for Ohm. The matcher is deterministic, so matching again with a limit two lower gives
  // up exactly when the first match opened `nestingLimit - 1` levels. (Only failures pay for this.)
  if (outcome === 'no match' && attempt(text, startRule, Math.max(0, nestingLimit - 2), callsPerCharacter) !== 'no match') return 'gave up';
  return outcome;
}

function attempt(text: string, startRule: StartRule, nestingLimit: number, callsPerCharacter: number): [Cst, number] | 'no match' | 'gave up' {
  try {
    const matched = generatedMatch(text, startRule, nestingLimit, CALLS_MINIMUM + callsPerCharacter * text.length);
    if (matched === null) return 'no match';
    return matched === undefined ? 'gave up' : [matched.cst, matched.offset];
  } catch (error) {
    // Too deep for this stack: Ohm's guard reports it (or matches, if it fits there).
    if (error instanceof RangeError) return 'gave up';
    throw error;
  }
}
