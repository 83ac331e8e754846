/**
 * Compiles a program and its libraries to one JavaScript source, evaluated
 * once per run with `new Function`. The generated code only references
 * helpers, the machine, and the constant/position tables — never script text
 * — so the script cannot inject code. Inside the isolate this is as safe as
 * the closures it replaces, and V8 optimises it like ordinary JavaScript.
 */
import type { Program } from '../../ast/index.ts';
import { ScriptError, type Value } from '../../runtime/index.ts';
import type { Machine } from '../machine.ts';
import { BodyContext, ProgramTables } from './code-context.ts';
import { findHandler, generateBody } from './generate-body.ts';
import { internal } from './generate-expression.ts';
import { createHelpers } from './helpers.ts';

/** The compiled program: run the command blocks. */
export interface CompiledProgram {
  /** The generated JavaScript (for debugging and tests). */
  readonly source: string;
  run(): void;
}

/** Compiles `program` with `libraries` for one run on `machine`. */
export function compileProgram(program: Program, libraries: readonly Program[], machine: Machine): CompiledProgram {
  const tables = new ProgramTables(machine.limits);
  for (const each of [...libraries, program]) if (each.type !== 'Program') internal(`unknown program node ${JSON.stringify((each as { type: unknown }).type)}`);
  const definitions = [...libraries, program].flatMap((each) => each.functions);
  for (const definition of definitions) if (definition.type !== 'FunctionDefinition') internal('a function list holds something other than a FunctionDefinition');
  for (const command of program.commands) if (command.type !== 'CommandBlock') internal('a command list holds something other than a CommandBlock');
  const functions = new Map<string, { id: string; required: number; total: number }>();
  definitions.forEach((definition, index) => {
    if (functions.has(definition.name)) {
      throw new ScriptError('SCRIPT_DUPLICATE_FUNCTION', `Function '${definition.name}' is defined more than once.`, definition, 42);
    }
    functions.set(definition.name, { id: `f${index}`, required: definition.required.length, total: definition.required.length + definition.optional.length });
  });
  const globals: ReadonlyMap<string, Value> = machine.globals;
  const parts: string[] = [];
  definitions.forEach((definition, index) => {
    const context = new BodyContext(tables, globals, functions, definition.name, 'function', hasHandler(definition.body));
    parts.push(generateBody(`f${index}`, [...definition.required, ...definition.optional], definition.body, context));
  });
  const commandBody = program.commands.flatMap((command) => command.body);
  const commandContext = new BodyContext(tables, globals, functions, 'command', 'command', hasHandler(commandBody));
  parts.push(generateBody('command', [], commandBody, commandContext));
  const helpers = createHelpers(machine, tables.positions);
  const helperNames = Object.keys(helpers);
  const source = [
    '"use strict";',
    `const { ${helperNames.join(', ')} } = H;`,
    ...parts,
    'return command;',
  ].join('\n');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from the AST only; see the module comment.
  const factory = new Function('H', 'M', 'K', 'P', source) as (h: unknown, m: Machine, k: unknown[], p: unknown[]) => () => void;
  const command = factory(helpers, machine, tables.constants, tables.positions);
  return { source, run: command };
}

function hasHandler(statements: Program['commands'][number]['body']): boolean {
  return findHandler(statements) !== null;
}
