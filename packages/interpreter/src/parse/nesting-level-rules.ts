/**
 * The rules every nesting cycle of the grammar applies once (brackets, calls,
 * indexes, parentheses and `**` pass through `operand`; blocks through
 * `Body`). Both matchers count their applications on the stack against the
 * nesting limit: the Ohm guard (`match-with-nesting-limit.ts`) and the
 * generated matcher (`src/grammar/generate-matcher.ts` bakes the list in).
 */
export const NESTING_LEVEL_RULES: readonly string[] = ['operand', 'Body'];
