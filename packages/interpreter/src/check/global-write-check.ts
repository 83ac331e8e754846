/**
 * Writes to a read-only global (`set userdata = …`, `set userdata["k"] = …`,
 * `for each sid in …`) and function parameters named like one (`func
 * f(needs self)`). The run refuses them with `SCRIPT_GLOBAL_READ_ONLY` — a
 * write when it reaches the statement, after earlier statements (tool calls
 * included) have run; a parameter when it compiles the program — and the
 * check refuses them before anything runs, with the same code and wording.
 * It needs the names the host binds, so it runs only when the caller gives
 * them (`CheckContext.globals`), as the map-key check does; `self` is bound
 * by every run.
 */
import { type FunctionDefinition, forEachChild, type Node, type Program } from '../ast/index.ts';
import { DEFAULT_GLOBALS } from '../evaluate/evaluation-types.ts';
import type { Finding } from './structure-check.ts';

/**
 * Why `definition` may not run because a parameter has the name of a global
 * (which wins every lookup, so the parameter would never be read), or
 * undefined. One rule and one wording for the check and code generation.
 */
export function globalParameterProblem(definition: FunctionDefinition, isGlobal: (name: string) => boolean): string | undefined {
  const shadowing = [...definition.required, ...definition.optional].find(isGlobal);
  return shadowing === undefined ? undefined : `Parameter '${shadowing}' of function '${definition.name}' has the name of a global, which it would never be read as; give the parameter another name.`;
}

/** `SCRIPT_GLOBAL_READ_ONLY` for each assignment target, loop variable or function parameter that names a global. */
export function checkGlobalWrites(program: Program, globals: ReadonlySet<string>): Finding[] {
  const isGlobal = (name: string): boolean => globals.has(name) || Object.hasOwn(DEFAULT_GLOBALS, name);
  const findings: Finding[] = [];
  for (const definition of program.functions) {
    const problem = globalParameterProblem(definition, isGlobal);
    if (problem !== undefined) findings.push({ code: 'SCRIPT_GLOBAL_READ_ONLY', message: problem, line: definition.line, column: definition.column });
  }
  const visit = (node: Node): void => {
    if (node.type === 'LValue' && isGlobal(node.name)) {
      findings.push({
        code: 'SCRIPT_GLOBAL_READ_ONLY',
        message: `'${node.name}' is a global and cannot be changed; copy it into a variable of your own first (set mine = ${node.name}) and change that.`,
        line: node.line,
        column: node.column,
      });
    } else if (node.type === 'ForEachStatement' && isGlobal(node.variable)) {
      findings.push({ code: 'SCRIPT_GLOBAL_READ_ONLY', message: `'${node.variable}' is a global and cannot be a loop variable; name the loop variable otherwise.`, line: node.line, column: node.column });
    }
    forEachChild(node, visit);
  };
  visit(program);
  return findings;
}
