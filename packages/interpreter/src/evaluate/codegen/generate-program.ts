/**
 * Compiles a program and its libraries to JavaScript source with its
 * constant and position tables, as plain data (`CompiledProgram`). Pure: it
 * needs only the AST, the run's limits (baked into the code) and the names of
 * the read-only globals, so the host runs it once per run and only the
 * result crosses into the sandbox, where `instantiateProgram` evaluates it
 * with `new Function`. The generated code only references helpers, the
 * machine, and the constant/position tables — never script text — so the
 * script cannot inject code whatever its AST holds.
 */
import { boundNames } from '../../ast/bound-names.ts';
import type { FunctionDefinition, Program } from '../../ast/index.ts';
import { type RunLimits, ScriptError } from '../../runtime/index.ts';
import { duplicateParameterProblem } from '../../check/duplicate-parameter.ts';
import { globalParameterProblem } from '../../check/global-write-check.ts';
import { unsetVariableMessages } from '../../check/unset-variable-message.ts';
import { BodyContext, type FileNames, ProgramTables } from './code-context.ts';
import type { CompiledProgram } from './compiled-program.ts';
import { findHandler, generateBody } from './generate-body.ts';
import { internal } from './generate-expression.ts';

/** What code generation needs to know about the run. */
export interface GenerateOptions {
  /** The run's resolved limits (call depth, loop iterations and collection size are baked into the code). */
  readonly limits: Pick<RunLimits, 'collectionSize' | 'callDepth' | 'loopIterations'>;
  /** Names of the read-only globals: reading one is a constant, assigning one an error. */
  readonly globals: ReadonlySet<string>;
}

/** Compiles `program` with `libraries`; throws `ScriptError` (or an internal `Error`) for what cannot compile. */
export function generateProgram(program: Program, libraries: readonly Program[], options: GenerateOptions): CompiledProgram {
  const tables = new ProgramTables(options.limits);
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
  const { globals } = options;
  // A parameter named like a global would never be read (a global wins every lookup): refused before anything runs.
  // The check refuses both problems first; these are the backstop for a program that skipped it. The error's frame
  // names the function, so a host can tell which file the line is in (a library's, not the command's).
  for (const definition of definitions) {
    // A parameter named twice must not reach the JavaScript compiler.
    const duplicate = duplicateParameterProblem(definition);
    if (duplicate !== undefined) throw inFunction(new ScriptError('SCRIPT_DUPLICATE_PARAMETER', duplicate, definition), definition);
    const shadowing = globalParameterProblem(definition, (name) => globals.has(name));
    if (shadowing !== undefined) throw inFunction(new ScriptError('SCRIPT_GLOBAL_READ_ONLY', shadowing, definition, 43), definition);
  }
  // Names are bound per file: a name its file never sets can only read nil (SCRIPT_VARIABLE_UNSET). The files'
  // functions in order are `definitions`, so `f<index>` counts across them.
  const parts: string[] = [];
  let index = 0;
  let commandNames: FileNames | undefined;
  for (const file of [...libraries, program]) {
    const names = fileNames(file, globals);
    if (file === program) commandNames = names;
    for (const definition of file.functions) {
      const context = new BodyContext(tables, globals, names, functions, definition.name, 'function', hasHandler(definition.body));
      parts.push(generateBody(`f${index++}`, [...definition.required, ...definition.optional], definition.body, context, definition.returns));
    }
  }
  const commandBody = program.commands.flatMap((command) => command.body);
  const commandContext = new BodyContext(tables, globals, commandNames as FileNames, functions, 'command', 'command', hasHandler(commandBody));
  parts.push(generateBody('command', [], commandBody, commandContext));
  const source = [...parts, 'return command;'].join('\n');
  return { source, constants: tables.constants, positions: tables.positions };
}

/** What a file's bodies know of its names: those it binds, and the message of a read of any other (each worked out once). */
function fileNames(file: Program, globals: ReadonlySet<string>): FileNames {
  const bound = boundNames(file);
  return { bound, unsetMessage: unsetVariableMessages(() => [...bound, ...globals]) };
}

/** `error` with the frame of the function `definition` it is about, as an error raised inside it would have. */
function inFunction(error: ScriptError, definition: FunctionDefinition): ScriptError {
  error.frames.push({ name: definition.name, line: definition.line, column: definition.column });
  return error;
}

function hasHandler(statements: Program['commands'][number]['body']): boolean {
  return findHandler(statements) !== null;
}
