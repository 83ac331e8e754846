/**
 * Colours for the terminal: picocolors, switched on or off once per
 * renderer (never by a global), and the rule for when they are on.
 */
import picocolors from 'picocolors';

/** The colour functions a renderer uses; identity functions when colour is off. */
export type TerminalColors = ReturnType<typeof picocolors.createColors>;

/** Colour functions that add escape codes only when `enabled`. */
export function terminalColors(enabled: boolean): TerminalColors {
  return picocolors.createColors(enabled);
}

/** What decides colour and motion: the output stream's TTY flag and the environment. */
export interface TerminalFacts {
  readonly isTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * Colour on a terminal only. `NO_COLOR` (any non-empty value, no-color.org)
 * turns it off; `FORCE_COLOR` (non-empty, not `0`) turns it on even in a pipe;
 * `TERM=dumb` turns it off.
 */
export function shouldUseColor(facts: TerminalFacts): boolean {
  if ((facts.env['NO_COLOR'] ?? '') !== '') return false;
  const force = facts.env['FORCE_COLOR'];
  if (force !== undefined && force !== '' && force !== '0') return true;
  return facts.isTTY && facts.env['TERM'] !== 'dumb';
}

/**
 * Motion (a spinner redrawn in place) on an interactive terminal only: not
 * in a pipe, not under `TERM=dumb`, not on CI (whose logs keep every frame).
 */
export function shouldUseMotion(facts: TerminalFacts): boolean {
  return facts.isTTY && facts.env['TERM'] !== 'dumb' && (facts.env['CI'] ?? '') === '';
}
