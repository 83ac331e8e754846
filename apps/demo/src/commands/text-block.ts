/**
 * A block of stored text as `askloop show` prints it under its label:
 * indented, dimmed, made terminal-safe, and cut after a number of lines
 * with how many more there are.
 */
import { formatCounted } from '../progress/format-values.ts';
import type { TerminalColors } from '../progress/terminal-colors.ts';
import { terminalSafe } from '../progress/terminal-safe.ts';

/** `text` indented and dimmed, cut after `maxLines` lines (then how many more, and that `--full` shows them). */
export function textBlock(text: string, colors: TerminalColors, maxLines: number): string {
  const lines = terminalSafe(text.replace(/\n+$/, '')).split('\n');
  const shown = lines.slice(0, maxLines).map((line) => `    ${colors.dim(line)}`.trimEnd());
  if (lines.length > maxLines) shown.push(`    ${colors.dim(`… ${formatCounted(lines.length - maxLines, 'more line')} (--full shows everything)`)}`);
  return `${shown.join('\n')}\n`;
}
