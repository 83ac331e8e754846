/**
 * Every use of Ohm 17 internals, in one place (ohm-js is pinned at 17.5.0;
 * `ohm-internals.test.ts` fails on another version). The AST builder walks
 * the concrete syntax tree (`MatchResult._cst`, `getCstRoot()` in Ohm 18),
 * and the nesting guard wraps rule application (`Apply.prototype.reallyEval`).
 */
import type { MatchResult } from 'ohm-js';
import { pexprs } from 'ohm-js';

/** The parts of an Ohm 17 CST node the builder reads. */
export interface Cst {
  readonly ctorName: string;
  readonly children: readonly Cst[];
  readonly childOffsets: readonly number[];
  readonly matchLength: number;
}

/** The root CST node of a successful match and its start offset. */
export function cstRoot(match: MatchResult): [Cst, number] {
  const internals = match as unknown as { _cst: Cst; _cstOffset: number };
  return [internals._cst, internals._cstOffset];
}

/** What the matcher passes to a rule application: where it is in the input. */
export interface OhmMatchState {
  readonly inputStream: { readonly pos: number };
}

/** A rule application (`pexprs.Apply`): the rule's name, and its un-memoized evaluation. */
export interface OhmApply {
  readonly ruleName: string;
  reallyEval(state: OhmMatchState): boolean;
}

/** The prototype every rule application shares; wrapping `reallyEval` sees every un-memoized application. */
export const applyPrototype: OhmApply = (pexprs as unknown as { Apply: { prototype: OhmApply } }).Apply.prototype;
