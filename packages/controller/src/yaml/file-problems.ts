/**
 * The problems of one file as one message, the way every reader of a file
 * the user writes reports them (askloop.config.yaml, an agent definition, an
 * `--mcp-config` file): each at its line and column, the first in the file
 * leading, each other on a line of its own after its place, so one run shows
 * every fix.
 */
import type { LineCounter } from 'yaml';
import { formatIssuePath } from '../agent/validate-agent-definition.ts';
import type { YamlProblem } from './yaml-node-paths.ts';

/** A problem at its place in a file (1-based line and column, when known). */
export interface PlacedProblem {
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  /** What is wrong and how to fix it, without the place. */
  readonly message: string;
}

/** A YAML problem at its line and column, its message after the path of the value it is at (`ceilings.maxTurns: …`). */
export function placeYamlProblem(problem: YamlProblem, lineCounter: LineCounter): { readonly line: number; readonly column: number; readonly message: string } {
  const { line, col } = lineCounter.linePos(problem.offset);
  return { line, column: col, message: problem.path === undefined ? problem.message : `${formatIssuePath(problem.path)}: ${problem.message}` };
}

/** Where a problem is: `FILE:LINE:COLUMN`, as compilers and the askloop CLI print it, or `line L, column C` in a text with no name. */
export function problemPlace(source: string | undefined, line: number, column: number): string {
  return source === undefined ? `line ${line}, column ${column}` : `${source}:${line}:${column}`;
}

/**
 * The problems of the file `source` (at least one) in the order of the file,
 * and one message saying them all: the first's message alone when it is the
 * only one; else it, how many there are, and each other on a line of its own
 * after its place, at most `shown` in all and the rest counted. The first
 * problem's place is the caller's to give (an error's fields, a prefix).
 */
export function listProblems<T extends PlacedProblem>(problems: readonly T[], source: string | undefined, shown: number): { readonly first: T; readonly message: string } {
  const sorted = [...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  const [first, ...rest] = sorted as [T, ...T[]];
  if (rest.length === 0) return { first, message: first.message };
  const listed = rest.slice(0, shown - 1).map((problem) => `\n${problemPlace(source, problem.line ?? 1, problem.column ?? 1)}: ${problem.message}`);
  const hidden = rest.length - listed.length;
  const more = hidden > 0 ? `\n… and ${hidden} more` : '';
  return { first, message: `${first.message} (${sorted.length} problems in the file; the others below)${listed.join('')}${more}` };
}
