/**
 * `check(program, context)`: every reason a parsed program may not run, in a
 * stable order (file, line, column, code). A program with any diagnostic of
 * severity `error` must run nothing at all; warnings do not stop it.
 */
import { findTooDeep, type Program } from '../ast/index.ts';
import { compareDiagnostics, type Diagnostic } from '../parse/diagnostic.ts';
import { makeDiagnostic } from '../parse/parse.ts';
import { tooDeepMessage } from '../parse/too-deep-message.ts';
import { checkAgentProgram, checkHostStatements } from './agent-check.ts';
import { checkBuiltinCalls } from './builtin-calls.ts';
import type { CheckContext } from './check-context.ts';
import { checkGlobalWrites } from './global-write-check.ts';
import { checkStructure } from './structure-check.ts';
import { checkTools } from './tool-check.ts';
import { checkUnsetNames } from './unset-name-check.ts';

/** The options a context may hold (`fileName` is `parseAndCheck`'s). */
const CONTEXT_KEYS = new Set(['mode', 'tools', 'allowAsk', 'allowPromptUser', 'globals', 'fileName']);

/** What is wrong with a caller's context, if anything: a typo must not check a program more leniently than asked. */
function contextProblem(context: unknown): string | undefined {
  if (typeof context !== 'object' || context === null) return `check: the context must be an object ({ mode: 'agent' | 'host', … }), got ${context === null ? 'null' : typeof context}`;
  const record = context as Record<string, unknown>;
  if (record.mode !== 'agent' && record.mode !== 'host') return `check: mode must be 'agent' or 'host', got ${JSON.stringify(record.mode)}`;
  for (const key of Object.keys(record)) {
    if (CONTEXT_KEYS.has(key)) continue;
    const hint = key === 'catalog' ? " (the catalogue is 'tools' here; prepare calls it 'catalog')" : '';
    return `check: the context has no option '${key}'${hint}; its options are mode, tools, allowAsk, allowPromptUser and globals`;
  }
  for (const key of ['allowAsk', 'allowPromptUser']) {
    if (record[key] !== undefined && typeof record[key] !== 'boolean') return `check: ${key} must be true or false, got ${JSON.stringify(record[key])}`;
  }
  if (record.globals !== undefined && !(record.globals instanceof Set)) return 'check: globals must be a Set of the names the run binds';
  return undefined;
}

/** Returns every diagnostic for `program` in `context` (empty when it may run). */
export function check(program: Program, context: CheckContext): Diagnostic[] {
  // Refused, not read leniently: an unknown mode used to check as host mode, a misnamed option (`catalog`) was ignored.
  const problem = contextProblem(context);
  if (problem !== undefined) return [makeDiagnostic('SCRIPT_INVALID_PROGRAM', problem, 1, 1, program?.fileName)];
  if (typeof program !== 'object' || program === null || (program as { type?: unknown }).type !== 'Program') {
    return [makeDiagnostic('SCRIPT_INVALID_PROGRAM', 'check: the program must be what parse() returns (result.program when result.ok)', 1, 1)];
  }
  // The checks below recurse once per level; `parse` never builds a tree past
  // the limit, but a hand-built one may be (iterative measurement, any depth).
  const tooDeep = findTooDeep(program);
  if (tooDeep !== undefined) {
    return [makeDiagnostic('SCRIPT_NESTING_TOO_DEEP', tooDeepMessage(tooDeep.depth), tooDeep.node.line, tooDeep.node.column, program.fileName)];
  }
  const findings = [
    ...checkStructure(program),
    ...checkBuiltinCalls(program),
    ...(context.mode === 'agent' ? checkAgentProgram(program, context) : checkHostStatements(program, context)),
    ...checkTools(program, context),
    ...(context.globals === undefined ? [] : checkUnsetNames(program, context.globals)),
    ...(context.globals === undefined ? [] : checkGlobalWrites(program, context.globals)),
  ];
  return findings
    .map((finding) => {
      const made = makeDiagnostic(finding.code, finding.message, finding.line, finding.column, program.fileName, finding.severity);
      const diagnostic = { ...made, ...(finding.tool === undefined ? {} : { tool: finding.tool }), ...(finding.grant === undefined ? {} : { grant: finding.grant }) };
      // A code the run also raises (SCRIPT_GLOBAL_READ_ONLY) is, found here, a check's: nothing ran.
      return diagnostic.kind === 'runtime' ? { ...diagnostic, kind: 'check' as const } : diagnostic;
    })
    .sort(compareDiagnostics);
}
