/**
 * The second rule that spans files: every call of a script function must
 * name a function defined in the program or its libraries, with an argument
 * count the definition accepts. The run would fail such a call with
 * `SCRIPT_FUNCTION_NOT_FOUND` / `SCRIPT_ARGUMENT_COUNT` when it reaches it —
 * after earlier statements (tool calls included) already ran — so `prepare`
 * and `askloop ns check` report it before anything runs. Built-ins are left
 * alone, recognised as the code generator recognises them: their counts are
 * checked in each file on its own (`checkBuiltinCalls`, part of `check`).
 */
import { type FunctionDefinition, type Program, walk } from '../ast/index.ts';
import type { Diagnostic } from '../parse/diagnostic.ts';
import { makeDiagnostic } from '../parse/parse.ts';
import { findBuiltin } from '../runtime/builtins.ts';
import type { CheckContext } from './check-context.ts';
import { functionEquivalent } from './function-equivalents.ts';

/**
 * Why a call of `name` fails and what to write instead. In agent mode the
 * program's author (a model) cannot pass libraries, so "define it in a
 * library" would be no fix: the message names the built-in, tool or
 * statement that does the same when there is one, else says to write the
 * steps out.
 */
function unknownFunctionMessage(name: string, context: FunctionCallContext, withLibraries: boolean): string {
  const equivalent = functionEquivalent(name, context.tools);
  if (context.mode === 'agent') {
    const where = withLibraries ? " in this program or the host's libraries" : '';
    if (equivalent !== undefined) return `No function named '${name}' exists${where}: ${equivalent}.`;
    return `No function named '${name}' exists${where}, and a turn's program cannot define functions: write the steps out in the command block, or use a built-in such as len(x) or a listed tool; or fix the name.`;
  }
  const missing = `No function named '${name}' is defined in this program or its libraries`;
  if (equivalent !== undefined) return `${missing}: ${equivalent} (or define '${name}' in a library passed with the program).`;
  return `${missing}; define it in a library passed with the program, or fix the name.`;
}

/** What the function-call rule needs of the check's context: who writes the program, and the tools it may call. */
export type FunctionCallContext = Partial<Pick<CheckContext, 'mode' | 'tools'>>;

/**
 * `SCRIPT_FUNCTION_UNKNOWN` and `SCRIPT_FUNCTION_ARGUMENT_COUNT` for the calls
 * in `programs` (the program and all its libraries). `context` words the
 * unknown-function message: `mode` `agent` for a turn's program (no
 * library advice), and `tools` so a suggested tool is one it may call
 * (without `mode`, the host's wording).
 */
export function findFunctionCallProblems(programs: readonly Program[], context: FunctionCallContext = {}): Diagnostic[] {
  const defined = new Map<string, FunctionDefinition>();
  for (const program of programs) for (const definition of program.functions) if (!defined.has(definition.name)) defined.set(definition.name, definition);
  const diagnostics: Diagnostic[] = [];
  for (const program of programs) {
    // `walk` is iterative: any tree is safe.
    walk(program, (node) => {
      if (node.type !== 'CallExpression' || node.callee.type !== 'FunctionReference') return;
      const { name, builtin } = node.callee;
      if (builtin || findBuiltin(name) !== undefined) return;
      const target = defined.get(name);
      if (target === undefined) {
        const message = unknownFunctionMessage(name, context, programs.length > 1);
        diagnostics.push(makeDiagnostic('SCRIPT_FUNCTION_UNKNOWN', message, node.line, node.column, program.fileName));
        return;
      }
      const required = target.required.length;
      const total = required + target.optional.length;
      const given = node.arguments.length;
      if (given < required || given > total) {
        const expected = required === total ? `${required}` : `${required} to ${total}`;
        const message = `${name}() takes ${expected} argument${total === 1 ? '' : 's'}, got ${given}.`;
        diagnostics.push(makeDiagnostic('SCRIPT_FUNCTION_ARGUMENT_COUNT', message, node.line, node.column, program.fileName));
      }
    });
  }
  return diagnostics;
}
