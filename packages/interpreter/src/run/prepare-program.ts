/**
 * The static checks, run before anything executes: parse (when given source)
 * or validate (when given an AST object) and `check` the program and every
 * library, then the rules that span files (one definition per function name).
 * Any error diagnostic means nothing runs; warnings are returned with the
 * prepared program.
 */
import { type Program, validateProgram } from '../ast/index.ts';
import { check, type CheckContext, findDuplicateFunctions, findFunctionCallProblems, findToolCalls } from '../check/index.ts';
import { parseBounded, type Diagnostic } from '../parse/index.ts';
import { compareDiagnostics } from '../parse/diagnostic.ts';
import { makeDiagnostic } from '../parse/parse.ts';
import type { PreparedProgram, PrepareResult } from './run-types.ts';

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

async function prepareOne(input: string | Program, context: CheckContext, fileName: string | undefined): Promise<{ program?: Program; diagnostics: readonly Diagnostic[] }> {
  let program: Program;
  if (typeof input === 'string') {
    // Bounded: small sources parse here, larger ones in a supervised worker, oversize ones are refused unparsed.
    const parsed = await parseBounded(input, fileName === undefined ? {} : { fileName });
    if (!parsed.ok) return { diagnostics: parsed.diagnostics };
    program = parsed.program;
  } else {
    const validated = snapshot(input, fileName ?? (typeof input === 'object' && input !== null && typeof input.fileName === 'string' ? input.fileName : undefined));
    if (validated.program === undefined) return validated;
    program = validated.program;
  }
  const diagnostics = check(program, context);
  return diagnostics.some((diagnostic) => diagnostic.severity === 'error') ? { diagnostics } : { program, diagnostics };
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
export async function prepareProgram(
  input: string | Program,
  libraries: readonly (string | Program)[],
  context: CheckContext,
  fileName?: string,
): Promise<PrepareResult> {
  const diagnostics: Diagnostic[] = [];
  const checkedLibraries: Program[] = [];
  for (const [index, library] of libraries.entries()) {
    const prepared = await prepareOne(library, libraryContext(context), `library-${index + 1}`);
    diagnostics.push(...prepared.diagnostics);
    if (prepared.program !== undefined) checkedLibraries.push(prepared.program);
  }
  const main = await prepareOne(input, context, fileName);
  diagnostics.push(...main.diagnostics);
  if (main.program !== undefined) {
    const all = [...checkedLibraries, main.program];
    diagnostics.push(...findDuplicateFunctions(all));
    // A library prepared alone may call functions of libraries it is later run with; a command may not.
    // Only once every file passed its own checks: a refused library's functions would all look missing.
    const clean = !diagnostics.some((diagnostic) => diagnostic.severity === 'error');
    if (clean && main.program.kind !== 'library') diagnostics.push(...findFunctionCallProblems(all, context));
  }
  diagnostics.sort(compareDiagnostics);
  if (main.program === undefined || diagnostics.some((diagnostic) => diagnostic.severity === 'error')) return { ok: false, diagnostics };
  const approvedTools = new Set<string>();
  for (const program of [...checkedLibraries, main.program]) for (const { tool } of findToolCalls(program)) approvedTools.add(tool.canonicalName);
  const prepared: PreparedProgram = { mode: context.mode, program: main.program, libraries: checkedLibraries, approvedTools: [...approvedTools].sort() };
  return { ok: true, prepared, diagnostics };
}

/**
 * Validates a prepared program's shape again (it may come from a store): a
 * JSON copy whose programs are well-formed ASTs and whose approved tools are
 * canonical names. Nothing is re-checked beyond that.
 */
export function validatePrepared(input: unknown): { ok: true; prepared: PreparedProgram } | { ok: false; diagnostics: readonly Diagnostic[] } {
  const invalid = (why: string): { ok: false; diagnostics: readonly Diagnostic[] } => ({
    ok: false,
    diagnostics: [makeDiagnostic('SCRIPT_INVALID_PROGRAM', `The prepared program is not valid: ${why}. Pass what prepare() returned.`, 1, 1)],
  });
  if (typeof input !== 'object' || input === null) return invalid('it is not an object');
  const raw = input as Partial<Record<keyof PreparedProgram, unknown>>;
  if (raw.mode !== 'agent' && raw.mode !== 'host') return invalid("its mode is not 'agent' or 'host'");
  if (!Array.isArray(raw.libraries)) return invalid('its libraries are not a list');
  if (!Array.isArray(raw.approvedTools) || !raw.approvedTools.every((name) => typeof name === 'string' && /^tool\.[^A-Z\s]+$/.test(name))) {
    return invalid('its approvedTools are not a list of canonical tool names');
  }
  const program = snapshot(raw.program, undefined);
  if (program.program === undefined) return { ok: false, diagnostics: program.diagnostics };
  const libraries: Program[] = [];
  for (const library of raw.libraries) {
    const checked = snapshot(library, undefined);
    if (checked.program === undefined) return { ok: false, diagnostics: checked.diagnostics };
    libraries.push(checked.program);
  }
  return { ok: true, prepared: { mode: raw.mode, program: program.program, libraries, approvedTools: [...(raw.approvedTools as string[])] } };
}
