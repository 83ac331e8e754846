/**
 * Lints: findings that do not change the decision (seed 002 §8) but are
 * reported beside the result.
 */

/** Every lint code this package emits. */
export const LINT_CODES = [
  'LINT_DUP_SECTION_IGNORED',
  'LINT_MARKER_LIKE_LINE',
  'LINT_MULTIPLE_MARKERS',
  'LINT_RECOVERED_BARE_COMMAND',
  'LINT_RECOVERED_FENCE',
  'LINT_RECOVERED_MISSING_END',
  'LINT_RECOVERED_MISSING_USERDATA',
  'LINT_RECOVERED_PREAMBLE',
  'LINT_TEXT_BEFORE_SECTION',
] as const;

/** A lint code. */
export type LintCode = (typeof LINT_CODES)[number];

/** One lint: a stable code, a message, and the 1-based line it concerns when there is one. */
export interface Lint {
  code: LintCode;
  message: string;
  line?: number;
}
