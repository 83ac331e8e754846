/**
 * Calls of built-in functions (`len`, `char`, `sin`, `is_string`, …) with an
 * argument count the built-in does not take. The run fails such a call with
 * `SCRIPT_ARGUMENT_COUNT` when it reaches it — after earlier statements (tool
 * calls included) already ran — so the check refuses it before anything runs,
 * with the run's message, under the code it gives a script function's call
 * with a wrong count (`SCRIPT_FUNCTION_ARGUMENT_COUNT`, numeric code 4 too).
 * A built-in wins over a script function of the same name at run time (names
 * are case-insensitive, reference §1.7), so the built-in's count is checked
 * whatever the files define. It needs nothing but the file itself, so every
 * file is checked: a library alone and an agent turn too.
 */
import { forEachChild, type Node, type Program } from '../ast/index.ts';
import { builtinArgumentCountProblem, findBuiltin } from '../runtime/builtins.ts';
import type { Finding } from './structure-check.ts';

/** `SCRIPT_FUNCTION_ARGUMENT_COUNT` for each call of a built-in with an argument count it does not take. */
export function checkBuiltinCalls(program: Program): Finding[] {
  const findings: Finding[] = [];
  // Recursive, as the check's other walks are: `check` refuses a tree too deep for that first (`findTooDeep`).
  const visit = (node: Node): void => {
    if (node.type === 'CallExpression' && node.callee.type === 'FunctionReference') {
      const builtin = findBuiltin(node.callee.name);
      // Lower case, as the code generator names the built-in to the run.
      const problem = builtin === undefined ? undefined : builtinArgumentCountProblem(node.callee.name.toLowerCase(), builtin, node.arguments.length);
      if (problem !== undefined) findings.push({ code: 'SCRIPT_FUNCTION_ARGUMENT_COUNT', message: problem, line: node.line, column: node.column });
    }
    forEachChild(node, visit);
  };
  visit(program);
  return findings;
}
