/**
 * `askloop ns run FILE... [tool options] [--fuel N] [--timeout-ms N] [--memory-mb N] [--json]`:
 * loads library files, statically checks everything, then runs the command
 * files in order in the sandbox, with the built-in tools of `@askloop/tools`.
 */
import { createInterpreter, createSandboxPool, parse, type Diagnostic, type PreparedProgram, type Program, type RunLimits, type ScriptErrorData } from '@askloop/interpreter';
import { parseArgs } from 'node:util';
import type { Command, CommandIo } from '../../io.ts';
import { UsageError } from '../../io.ts';
import { readScripts } from './read-scripts.ts';
import { buildToolSetup, TOOL_OPTIONS, TOOL_OPTIONS_USAGE } from './tool-options.ts';

function positiveInteger(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(text)) throw new UsageError(`--${name} must be a positive whole number, got '${text}'`);
  return Number(text);
}

async function loadPrograms(files: readonly string[], io: CommandIo): Promise<{ programs: Program[]; diagnostics: Diagnostic[] }> {
  const programs: Program[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { fileName, source } of await readScripts(files, io)) {
    const parsed = parse(source, { fileName });
    if (parsed.ok) programs.push(parsed.program);
    else diagnostics.push(...parsed.diagnostics.map((diagnostic) => ({ ...diagnostic, file: fileName })));
  }
  return { programs, diagnostics };
}

const where = (file: string | undefined, line: number, column: number): string => `${file ?? '<script>'}:${line}:${column}`;

/** `askloop ns run`. */
export const runCommand: Command = {
  name: 'run',
  summary: 'check and run NeuroScript files in the sandbox',
  usage: `Usage: askloop ns run FILE... [tool options] [--fuel N] [--timeout-ms N] [--memory-mb N] [--json]

Loads the library files among FILE (scripts of func definitions), then runs
every command file in order, in a fresh sandbox context each, with the
library functions available. Every file is parsed and statically checked
first (with the same tool policy that authorizes the calls, literal
arguments included); if any check fails, the diagnostics are printed and
nothing runs. Warnings are printed and do not stop the run.
'-' reads a file from standard input.

Prints each emit on its own line as it happens; a run-time error goes to
standard error as FILE:LINE:COLUMN CODE message. With --json prints
  {"ok":bool,"emits":[…],"whispers":{…},"error":null|{"code":…,"kind":…,"message":…,"line":N,"column":N},
   "usage":{"fuel":N,"toolCalls":N,"wallMs":N}}
Exits 0 on success, 1 on a script error (static or at run time), 2 on a usage error.

${TOOL_OPTIONS_USAGE}

Options:
  --fuel N          evaluation steps per command file (default 1000000).
  --timeout-ms N    wall-clock per command file, tool time included (default 5000).
  --memory-mb N     isolate heap per run (default 64).
  --json            print the JSON report instead of the emits.
`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        ...TOOL_OPTIONS,
        fuel: { type: 'string' },
        'timeout-ms': { type: 'string' },
        'memory-mb': { type: 'string' },
        json: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
    const fuel = positiveInteger('fuel', values.fuel);
    const wallMs = positiveInteger('timeout-ms', values['timeout-ms']);
    const memoryMb = positiveInteger('memory-mb', values['memory-mb']);
    const limits: Partial<RunLimits> = {
      ...(fuel === undefined ? {} : { fuel }),
      ...(wallMs === undefined ? {} : { wallMs }),
      ...(memoryMb === undefined ? {} : { memoryMb }),
    };
    const json = values.json === true;

    const report = (ok: boolean, emits: readonly string[], whispers: Record<string, string>, error: ScriptErrorData | null, usage: { fuel: number; toolCalls: number; wallMs: number }): void => {
      if (!json) return;
      const errorJson = error === null ? null : { code: error.code, kind: error.kind, message: error.message, line: error.line, column: error.column };
      io.stdout(`${JSON.stringify({ ok, emits, whispers, error: errorJson, usage })}\n`);
    };

    // Static checks of every file first (each file, then each command with the libraries): nothing runs if any fails.
    const toolSetup = buildToolSetup(values, io);
    const loaded = await loadPrograms(positionals, io);
    const libraries = loaded.programs.filter((program) => program.kind === 'library');
    const commands = loaded.programs.filter((program) => program.kind === 'command');
    const pool = createSandboxPool();
    const interpreter = createInterpreter({ pool, limits });
    const found = new Map<string, Diagnostic>();
    for (const diagnostic of loaded.diagnostics) found.set(JSON.stringify(diagnostic), diagnostic);
    const prepared: { program: Program; prepared: PreparedProgram }[] = [];
    for (const program of [...libraries, ...commands]) {
      const isCommand = program.kind === 'command';
      const result = await interpreter.prepare(program, { mode: 'host', catalog: toolSetup.catalog, ...(isCommand ? { libraries } : {}) });
      for (const diagnostic of result.diagnostics) found.set(JSON.stringify(diagnostic), diagnostic);
      if (result.ok && isCommand) prepared.push({ program, prepared: result.prepared });
    }
    const diagnostics = [...found.values()];
    for (const { file, line, column, code, severity, message } of diagnostics) io.stderr(`${where(file, line, column)} ${severity === 'warning' ? 'warning ' : ''}${code} ${message}\n`);
    const firstError = diagnostics.find((diagnostic) => diagnostic.severity === 'error');
    if (firstError !== undefined) {
      await pool.close();
      report(false, [], {}, { code: firstError.code, kind: firstError.kind, message: firstError.message, line: firstError.line, column: firstError.column, frames: [] }, { fuel: 0, toolCalls: 0, wallMs: 0 });
      return 1;
    }

    const emits: string[] = [];
    // Whisper targets are script data: a Map (then Object.fromEntries) keeps '__proto__' and 'toString' ordinary keys.
    const whispers = new Map<string, string>();
    const usage = { fuel: 0, toolCalls: 0, wallMs: 0 };
    let error: ScriptErrorData | null = null;
    let failedFile: string | undefined;
    try {
      for (const [turn, { program, prepared: ready }] of prepared.entries()) {
        const result = await interpreter.execute(ready, {
          tools: toolSetup.hostFor(turn),
          onEmit: (text) => {
            if (!json) io.stdout(`${text}\n`);
          },
        });
        emits.push(...result.emits);
        for (const [target, text] of Object.entries(result.whispers)) {
          const previous = whispers.get(target);
          whispers.set(target, previous === undefined ? text : `${previous}\n${text}`);
        }
        usage.fuel += result.usage.fuel;
        usage.toolCalls += result.usage.toolCalls;
        usage.wallMs += result.usage.wallMs;
        if (result.error !== null) {
          error = result.error;
          failedFile = program.fileName;
          break;
        }
      }
    } finally {
      await pool.close();
    }
    if (error !== null && !json) io.stderr(`${where(failedFile, error.line, error.column)} ${error.code} ${error.message}\n`);
    report(error === null, emits, Object.fromEntries(whispers), error, usage);
    return error === null ? 0 : 1;
  },
};
