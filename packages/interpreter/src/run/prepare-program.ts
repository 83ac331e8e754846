/**
 * The static checks of part 1, run before anything executes: parse (when
 * given source) or validate (when given an AST object) and `check` the
 * program and every library. Any diagnostic means nothing runs.
 */
import { type Program, validateProgram } from '../ast/index.ts';
import { check, type CheckContext, findToolCalls } from '../check/index.ts';
import { parse, type Diagnostic } from '../parse/index.ts';
import { makeDiagnostic } from '../parse/parse.ts';

/** Checked programs, or the diagnostics that stop the run. */
export type PreparedProgram =
  | {
      readonly ok: true;
      readonly program: Program;
      readonly libraries: readonly Program[];
      /** Canonical names of every tool the checked programs call: the only tools the run may call. */
      readonly approvedTools: ReadonlySet<string>;
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/**
 * A JSON copy of an AST handed in as an object, validated: what is checked is
 * exactly what runs (no getters, no prototypes, no non-JSON values).
 */
function snapshot(input: unknown, fileName: string | undefined): { program?: Program; diagnostics: readonly Diagnostic[] } {
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(input) ?? 'null');
  } catch (error) {
    return { diagnostics: [makeDiagnostic('SCRIPT_INVALID_PROGRAM', `The program is not a valid NeuroScript AST: it is not JSON data (${(error as Error).message}).`, 1, 1, fileName)] };
  }
  const validation = validateProgram(copy);
  if (!validation.ok) {
    const message = `The program is not a valid NeuroScript AST: ${validation.message}. Pass source text, or an AST from parse().`;
    return { diagnostics: [makeDiagnostic('SCRIPT_INVALID_PROGRAM', message, validation.line, validation.column, fileName)] };
  }
  return { program: validation.program, diagnostics: [] };
}

function prepareOne(input: string | Program, context: CheckContext, fileName: string | undefined): { program?: Program; diagnostics: readonly Diagnostic[] } {
  let program: Program;
  if (typeof input === 'string') {
    const parsed = parse(input, fileName === undefined ? {} : { fileName });
    if (!parsed.ok) return { diagnostics: parsed.diagnostics };
    program = parsed.program;
  } else {
    const validated = snapshot(input, fileName ?? (typeof input === 'object' && input !== null && typeof input.fileName === 'string' ? input.fileName : undefined));
    if (validated.program === undefined) return validated;
    program = validated.program;
  }
  const diagnostics = check(program, context);
  return diagnostics.length > 0 ? { diagnostics } : { program, diagnostics: [] };
}

/**
 * The context libraries are checked in: host mode (they may define functions),
 * but `ask`/`promptuser` only where the calling run allows them — a library
 * function called from an agent turn runs as part of that turn.
 */
function libraryContext(context: CheckContext): CheckContext {
  if (context.mode === 'host') return context;
  return { ...context, mode: 'host', allowAsk: context.allowAsk ?? false, allowPromptUser: context.allowPromptUser ?? false };
}

/** Parses (or validates) and checks a program and its libraries. */
export function prepareProgram(input: string | Program, libraries: readonly (string | Program)[], context: CheckContext, fileName?: string): PreparedProgram {
  const diagnostics: Diagnostic[] = [];
  const checkedLibraries: Program[] = [];
  libraries.forEach((library, index) => {
    const prepared = prepareOne(library, libraryContext(context), `library-${index + 1}`);
    diagnostics.push(...prepared.diagnostics);
    if (prepared.program !== undefined) checkedLibraries.push(prepared.program);
  });
  const main = prepareOne(input, context, fileName);
  diagnostics.push(...main.diagnostics);
  if (diagnostics.length > 0 || main.program === undefined) return { ok: false, diagnostics };
  const approvedTools = new Set<string>();
  for (const program of [...checkedLibraries, main.program]) for (const { tool } of findToolCalls(program)) approvedTools.add(tool.canonicalName);
  return { ok: true, program: main.program, libraries: checkedLibraries, approvedTools };
}
