/** The words of `SCRIPT_NESTING_TOO_DEEP`: what is too deep, the limit, and how to fix it. */
import { MAX_NESTING_DEPTH } from '../ast/index.ts';

/** The message for nesting past the limit; `depth` when it is known (measured on the tree), else "more than". */
export function tooDeepMessage(depth?: number): string {
  const how = depth === undefined ? `more than ${MAX_NESTING_DEPTH} levels deep` : `${depth} levels deep`;
  return `Statements and expressions nest ${how} here; the limit is ${MAX_NESTING_DEPTH} levels (each block, bracket and operator is one). Compute inner parts into variables with 'set' first, and use fewer nested blocks.`;
}
