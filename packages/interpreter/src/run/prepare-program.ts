/**
 * The static checks of part 1, run before anything executes: parse (when
 * given source) and `check` the program and every library. Any diagnostic
 * means nothing runs.
 */
import type { Program } from '../ast/index.ts';
import { check, type CheckContext } from '../check/index.ts';
import { parse, type Diagnostic } from '../parse/index.ts';

/** Checked programs, or the diagnostics that stop the run. */
export type PreparedProgram =
  | { readonly ok: true; readonly program: Program; readonly libraries: readonly Program[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

function prepareOne(input: string | Program, context: CheckContext, fileName: string | undefined): { program?: Program; diagnostics: readonly Diagnostic[] } {
  let program: Program;
  if (typeof input === 'string') {
    const parsed = parse(input, fileName === undefined ? {} : { fileName });
    if (!parsed.ok) return { diagnostics: parsed.diagnostics };
    program = parsed.program;
  } else program = input;
  const diagnostics = check(program, context);
  return diagnostics.length > 0 ? { diagnostics } : { program, diagnostics: [] };
}

/** Parses and checks a program and its libraries. */
export function prepareProgram(input: string | Program, libraries: readonly (string | Program)[], context: CheckContext, fileName?: string): PreparedProgram {
  const diagnostics: Diagnostic[] = [];
  const checkedLibraries: Program[] = [];
  libraries.forEach((library, index) => {
    const prepared = prepareOne(library, { ...context, mode: 'host' }, `library-${index + 1}`);
    diagnostics.push(...prepared.diagnostics);
    if (prepared.program !== undefined) checkedLibraries.push(prepared.program);
  });
  const main = prepareOne(input, context, fileName);
  diagnostics.push(...main.diagnostics);
  if (diagnostics.length > 0 || main.program === undefined) return { ok: false, diagnostics };
  return { ok: true, program: main.program, libraries: checkedLibraries };
}
