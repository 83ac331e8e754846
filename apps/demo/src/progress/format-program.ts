/**
 * A program as the terminal shows it: syntax-highlighted, one numbered line
 * per source line, indented under its turn.
 */
import { highlightNeuroScript } from './highlight-neuroscript.ts';
import type { TerminalColors } from './terminal-colors.ts';
import { terminalSafe } from './terminal-safe.ts';

/**
 * Formats `source` with right-aligned line numbers and a gutter (`  3 │ emit x`),
 * each line prefixed with `indent`. Control characters in the source are
 * shown escaped (see `terminalSafe`), so a program cannot drive the terminal.
 * Ends with a newline; an empty program gives one line saying so.
 */
export function formatProgram(source: string, colors: TerminalColors, indent = '    '): string {
  const trimmed = source.replace(/\n+$/, '');
  if (trimmed.trim() === '') return `${indent}${colors.dim('(no program)')}\n`;
  const lines = highlightNeuroScript(terminalSafe(trimmed), colors).split('\n');
  const width = String(lines.length).length;
  return lines.map((line, index) => `${indent}${colors.dim(`${String(index + 1).padStart(width)} │`)} ${line}`.trimEnd() + '\n').join('');
}
