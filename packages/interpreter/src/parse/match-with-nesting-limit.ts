/**
 * Matching with a nesting limit. Ohm's matcher recurses once per rule
 * application, so about 190 nested `[` (400 bytes) overflowed the host's
 * stack inside `grammar.match`. Every nesting cycle of the grammar passes
 * through exactly one application of `operand` (brackets, calls, indexes,
 * parentheses, `**`) or of `Body` (blocks), so counting those applications
 * on the matcher's stack counts nesting levels; the match stops at the first
 * one past the limit and reports where it starts. At the default limit of
 * 100 the deepest form (nested maps, 7 applications per level) uses about
 * half of Node's default stack, measured.
 *
 * Ohm 17 has no hook for this, so the guard wraps `Apply.prototype.reallyEval`
 * (a rule application that is not memoized; see `ohm-internals.ts`) once, and
 * does nothing unless a guarded match is running. The nesting tests fail if it
 * stops working.
 */
import type { MatchResult } from 'ohm-js';
import grammar from '../grammar/neuroscript.ohm-bundle.js';
import type { StartRule } from './match-fast.ts';
import { NESTING_LEVEL_RULES } from './nesting-level-rules.ts';
import { applyPrototype, type OhmApply } from './ohm-internals.ts';

const LEVEL_RULES = new Set(NESTING_LEVEL_RULES);

/** Thrown out of the matcher when the limit is passed; caught below. */
class TooDeep {
  readonly offset: number;
  constructor(offset: number) {
    this.offset = offset;
  }
}

interface GuardState {
  depth: number;
  readonly limit: number;
}

/** The guarded match in progress (matching is synchronous, so there is at most one). */
let active: GuardState | undefined;

const reallyEval = applyPrototype.reallyEval;
applyPrototype.reallyEval = function guardedReallyEval(this: OhmApply, state) {
  const guard = active;
  if (guard === undefined || !LEVEL_RULES.has(this.ruleName)) return reallyEval.call(this, state);
  if (guard.depth >= guard.limit) throw new TooDeep(state.inputStream.pos);
  guard.depth += 1;
  try {
    return reallyEval.call(this, state);
  } finally {
    guard.depth -= 1;
  }
};

/**
 * Matches `text` from `startRule`, then runs `after(match)` (e.g. reading the
 * failures of a failed match, which matches again), both under the nesting
 * limit. A stack overflow anyway (a caller already deep in its own stack) is
 * reported as too deep at offset 0 rather than thrown.
 */
export function matchWithNestingLimit<T>(text: string, startRule: StartRule, limit: number, after: (match: MatchResult) => T): { readonly value: T; readonly tooDeepAt?: undefined } | { readonly value?: undefined; readonly tooDeepAt: number } {
  const outer = active;
  active = { depth: 0, limit };
  try {
    const match = grammar.match(text, startRule);
    return { value: after(match) };
  } catch (error) {
    if (error instanceof TooDeep) return { tooDeepAt: error.offset };
    if (error instanceof RangeError) return { tooDeepAt: 0 };
    throw error;
  } finally {
    active = outer;
  }
}
