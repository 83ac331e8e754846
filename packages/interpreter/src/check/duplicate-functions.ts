/**
 * The rule that spans files: a function defined in two of the files loaded
 * together (libraries, then the program) would fail the run with
 * `SCRIPT_DUPLICATE_FUNCTION` before its first statement, so it is reported
 * statically, at the second definition. Duplicates within one file are
 * `check`'s. `prepare` and `askloop ns check` both use it, so the check and
 * the run agree.
 */
import type { Program } from '../ast/index.ts';
import type { Diagnostic } from '../parse/diagnostic.ts';
import { makeDiagnostic } from '../parse/parse.ts';

/** `SCRIPT_DUPLICATE_FUNCTION` for every function defined again in a later program of `programs` (a nameless program is `library-N`, N from 1). */
export function findDuplicateFunctions(programs: readonly Program[]): Diagnostic[] {
  const first = new Map<string, { file: string; line: number }>();
  const diagnostics: Diagnostic[] = [];
  programs.forEach((program, index) => {
    const file = program.fileName ?? `library-${index + 1}`;
    const inThisFile = new Set<string>();
    for (const definition of program.functions) {
      if (inThisFile.has(definition.name)) continue;
      inThisFile.add(definition.name);
      const earlier = first.get(definition.name);
      if (earlier === undefined) {
        first.set(definition.name, { file, line: definition.line });
        continue;
      }
      const message = `Function '${definition.name}' is already defined in ${earlier.file} at line ${earlier.line}; rename one of them.`;
      diagnostics.push(makeDiagnostic('SCRIPT_DUPLICATE_FUNCTION', message, definition.line, definition.column, program.fileName));
    }
  });
  return diagnostics;
}
