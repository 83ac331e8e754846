/**
 * Writes to a read-only global (`set userdata = …`, `set userdata["k"] = …`,
 * `for each sid in …`). The run refuses them with `SCRIPT_GLOBAL_READ_ONLY`
 * when it reaches the statement, after earlier statements (tool calls
 * included) have run; the check refuses them before anything runs, with the
 * same code and fix. It needs the names the host binds, so it runs only when
 * the caller gives them (`CheckContext.globals`), as the map-key check does;
 * `self` is bound by every run.
 */
import { forEachChild, type Node, type Program } from '../ast/index.ts';
import { DEFAULT_GLOBALS } from '../evaluate/evaluation-types.ts';
import type { Finding } from './structure-check.ts';

/** `SCRIPT_GLOBAL_READ_ONLY` for each assignment target or loop variable that names a global. */
export function checkGlobalWrites(program: Program, globals: ReadonlySet<string>): Finding[] {
  const isGlobal = (name: string): boolean => globals.has(name) || Object.hasOwn(DEFAULT_GLOBALS, name);
  const findings: Finding[] = [];
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
