/** `parseAndCheck`: the one call a host makes before running a script. */
import type { Program } from '../ast/index.ts';
import type { Diagnostic } from '../parse/diagnostic.ts';
import { parse } from '../parse/parse.ts';
import { check } from './check.ts';
import type { CheckContext } from './check-context.ts';

/** The outcome of `parseAndCheck`: `ok` when the program parsed and no check reported an error (warnings may remain). */
export type ParseAndCheckResult =
  | { readonly ok: true; readonly program: Program; readonly diagnostics: readonly Diagnostic[] }
  | { readonly ok: false; readonly program?: Program; readonly diagnostics: readonly Diagnostic[] };

/** Parses `source` and, when it parses, checks it in `context`. Never throws on bad input. */
export function parseAndCheck(source: string, context: CheckContext & { readonly fileName?: string }): ParseAndCheckResult {
  const parsed = parse(source, context?.fileName === undefined ? {} : { fileName: context.fileName });
  if (!parsed.ok) return { ok: false, diagnostics: parsed.diagnostics };
  const diagnostics = check(parsed.program, context);
  if (diagnostics.some((diagnostic) => diagnostic.severity === 'error')) return { ok: false, program: parsed.program, diagnostics };
  return { ok: true, program: parsed.program, diagnostics };
}
