/**
 * `parse(source)`: NeuroScript text → plain AST or diagnostics. Never throws
 * on bad input. Runs the reference's source cleaning (§1.1), matches the
 * precompiled Ohm grammar, builds the AST, and reports every problem with a
 * 1-based line and column.
 */
import { type CommandBlock, type FunctionDefinition, findTooDeep, MAX_NESTING_DEPTH, type OnEventStatement, type Program } from '../ast/index.ts';
import { buildProgram } from './build-ast.ts';
import { furtherSyntaxErrors } from './further-syntax-errors.ts';
import type { Diagnostic } from './diagnostic.ts';
import { errorKind, numericCodeOf } from '../runtime/error-codes.ts';
import type { DiagnosticCode } from './diagnostic-codes.ts';
import { LineIndex } from './line-index.ts';
import { CALLS_PER_CHARACTER, matchFast } from './match-fast.ts';
import { matchWithNestingLimit } from './match-with-nesting-limit.ts';
import { cstRoot } from './ohm-internals.ts';
import { tooDeepMessage } from './too-deep-message.ts';
import { MAX_SOURCE_LENGTH, preprocess } from './preprocess.ts';
import { describeSyntaxError } from './syntax-message.ts';

/** Options for `parse`. */
export interface ParseOptions {
  /** Copied into the program and every diagnostic. */
  readonly fileName?: string;
}

/** The outcome of `parse`: a program, or the reasons there is none. */
export type ParseResult =
  | { readonly ok: true; readonly program: Program }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Parses a NeuroScript library or command script. Never throws on bad input. */
export function parse(source: string, options: ParseOptions = {}): ParseResult {
  return parseWith(source, options, true) as ParseResult;
}

/**
 * `parse` through the generated matcher only: the same result as `parse`
 * when the script matches, undefined when it does not (a syntax error, or
 * nesting past the limit) or when a `{{…}}` hole in it makes the generated
 * matcher give up: only Ohm can say why. The generated matcher
 * keeps no memo tables and stops at a work budget linear in the length, so
 * this is safe to run in the host on any source `parseBounded` accepts; Ohm's
 * error path is the expensive one, and that stays in the supervised worker.
 */
export function parseIfMatches(source: string, options: ParseOptions = {}): ParseResult | undefined {
  return parseWith(source, options, false);
}

/**
 * The generated matcher's budget when nothing falls back in the same thread:
 * real programs spend at most about five units per character (rule calls,
 * loop iterations and characters read; the conformance and bench programs),
 * and a tighter budget than the default keeps a hostile 64 KiB source that
 * makes the matcher backtrack to about 35 ms of the host's time before it
 * goes to the worker.
 */
const MATCH_ONLY_CALLS_PER_CHARACTER = 8;

function parseWith(source: string, options: ParseOptions, explainFailure: boolean): ParseResult | undefined {
  const { fileName } = options;
  const make = (code: DiagnosticCode, message: string, line: number, column: number): Diagnostic =>
    makeDiagnostic(code, message, line, column, fileName);
  if (typeof source !== 'string') {
    return { ok: false, diagnostics: [make('SCRIPT_SYNTAX', 'The script must be text.', 1, 1)] };
  }
  const { text, rejected } = preprocess(source);
  if (text.length > MAX_SOURCE_LENGTH) {
    return { ok: false, diagnostics: [make('SCRIPT_SOURCE_TOO_LARGE', `The script is ${text.length} characters long; the limit is ${MAX_SOURCE_LENGTH}. Split the work across turns or functions.`, 1, 1)] };
  }
  const lines = new LineIndex(text);
  const diagnostics: Diagnostic[] = rejected.map((character) => {
    const { line, column } = lines.position(character.offset);
    const hex = character.codePoint.toString(16).toUpperCase().padStart(4, '0');
    return make('SCRIPT_DISALLOWED_CHARACTER', `Disallowed invisible control character U+${hex}; delete it.`, line, column);
  });
  // One level of slack: the matcher tries an element inside `[]`/`()` before
  // finding none; the exact count is made on the tree below.
  // The generated matcher answers only when the script matches; otherwise Ohm
  // matches again and says why (or that it nests too deeply), as it always has.
  let root = matchFast(text, 'Program', MAX_NESTING_DEPTH + 1, explainFailure ? CALLS_PER_CHARACTER : MATCH_ONLY_CALLS_PER_CHARACTER);
  if (root === undefined) {
    if (!explainFailure) return undefined;
    const matched = matchWithNestingLimit(text, 'Program', MAX_NESTING_DEPTH + 1, (match) => ({ match, error: match.failed() ? describeSyntaxError(text, match) : undefined }));
    if (matched.tooDeepAt !== undefined) {
      const { line, column } = lines.position(matched.tooDeepAt);
      diagnostics.push(make('SCRIPT_NESTING_TOO_DEEP', tooDeepMessage(), line, column));
      return { ok: false, diagnostics };
    }
    const { match, error } = matched.value;
    if (error !== undefined) {
      // A syntax error at a character already refused above says nothing more (it was the character).
      const refused = (offset: number): boolean => rejected.some((character) => character.offset === offset);
      // The match stops at the first error; the lines after it are matched one by one for the others.
      for (const syntaxError of [error, ...furtherSyntaxErrors(text, error, lines, refused)]) {
        if (refused(syntaxError.offset)) continue;
        const { line, column } = lines.position(syntaxError.offset);
        diagnostics.push(make('SCRIPT_SYNTAX', syntaxError.message, line, column));
      }
      return { ok: false, diagnostics };
    }
    root = cstRoot(match);
  }
  // Without a fallback, a `{{…}}` hole the generated matcher does not match sends the whole script to Ohm too.
  const builtProgram = buildProgram(root, text, lines, explainFailure ? {} : { holeCallsPerCharacter: MATCH_ONLY_CALLS_PER_CHARACTER });
  if (builtProgram === undefined) return undefined;
  const { program: built, problems } = builtProgram;
  for (const problem of problems) {
    const { line, column } = lines.position(problem.offset);
    diagnostics.push(make(problem.code, problem.message, line, column));
  }
  const functions: FunctionDefinition[] = [];
  const eventHandlers: OnEventStatement[] = [];
  const commands: CommandBlock[] = [];
  for (const declaration of built.declarations) {
    if (declaration.type === 'FunctionDefinition') functions.push(declaration);
    else if (declaration.type === 'OnEventStatement') eventHandlers.push(declaration);
    else commands.push(declaration);
  }
  if (commands.length > 0 && functions.length + eventHandlers.length > 0) {
    const first = [...functions, ...eventHandlers].sort((a, b) => a.line - b.line)[0] as FunctionDefinition | OnEventStatement;
    const what = first.type === 'FunctionDefinition' ? `func ${first.name}` : 'on event';
    diagnostics.push(
      make(
        'SCRIPT_MIXED_SCRIPT',
        `A script holds either command blocks or definitions (func, on event), never both; '${what}' here sits beside a command block. Put the steps inside the command block, or move the definitions to a library script.`,
        first.line,
        first.column,
      ),
    );
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  const program: Program = {
    type: 'Program',
    kind: commands.length > 0 ? 'command' : functions.length + eventHandlers.length > 0 ? 'library' : 'empty',
    ...(fileName === undefined ? {} : { fileName }),
    metadata: built.metadata,
    functions,
    eventHandlers,
    commands,
    line: 1,
    column: 1,
  };
  // The matcher bounds bracket and block nesting; operator chains (`not not …`,
  // `a[0][0]…`, `1 + 1 + …`) nest only in the tree, so the tree is measured too.
  const tooDeep = findTooDeep(program, MAX_NESTING_DEPTH);
  if (tooDeep !== undefined) {
    return { ok: false, diagnostics: [make('SCRIPT_NESTING_TOO_DEEP', tooDeepMessage(tooDeep.depth), tooDeep.node.line, tooDeep.node.column)] };
  }
  return { ok: true, program };
}

/** Builds a diagnostic with its kind, adding the reference's numeric code when there is one. */
export function makeDiagnostic(code: DiagnosticCode, message: string, line: number, column: number, file?: string, severity: 'error' | 'warning' = 'error'): Diagnostic {
  const numericCode = numericCodeOf(code);
  return {
    code,
    severity,
    kind: errorKind(code),
    message,
    line,
    column,
    ...(file === undefined ? {} : { file }),
    ...(numericCode === undefined ? {} : { numericCode }),
  };
}
