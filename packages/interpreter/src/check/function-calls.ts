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

/** `SCRIPT_FUNCTION_UNKNOWN` and `SCRIPT_FUNCTION_ARGUMENT_COUNT` for the calls in `programs` (the program and all its libraries). */
export function findFunctionCallProblems(programs: readonly Program[]): Diagnostic[] {
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
        const message = `No function named '${name}' is defined in this program or its libraries; define it in a library passed with the program, or fix the name.`;
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
