/**
 * Where a program itself writes a control marker: the source lines of its
 * `emit` statements whose expression holds a string literal with the marker
 * (`emit "<<<LOOP:DONE>>> " + answer`), and the text of all its string
 * literals. The run reports the line of the statement behind each emit, so
 * the scan can tell the program's own marker from one in data it only passed
 * on (a file, a tool result, the task) — also when both reach one OUTPUT —
 * and a marker in a comment is not the program writing it.
 */
import { walk, type Program } from '@askloop/interpreter';

/** What a checked program writes of its own text. */
export interface MarkerWriters {
  /** Every string literal's text (plain strings and the literal parts of interpolated ones), one per line. */
  readonly literals: string;
  /** Source lines of `emit` statements whose expression holds a string literal containing `marker`. */
  readonly emitLines: ReadonlySet<number>;
}

/** The literals of `programs` (the program and its libraries) and the lines of their emits that write `marker`. */
export function markerWriters(programs: readonly Program[], marker: string): MarkerWriters {
  const literals: string[] = [];
  const emitLines = new Set<number>();
  for (const program of programs) {
    walk(program, (node, ancestors) => {
      if (node.type !== 'StringLiteral' && node.type !== 'TextPart') return;
      literals.push(node.value);
      if (!node.value.includes(marker)) return;
      // The innermost emit statement around the literal (an emit cannot hold another statement, so it is the one).
      const emit = ancestors.findLast((ancestor) => ancestor.type === 'EmitStatement');
      if (emit !== undefined) emitLines.add(emit.line);
    });
  }
  return { literals: literals.join('\n'), emitLines };
}
