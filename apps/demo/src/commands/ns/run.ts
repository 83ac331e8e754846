/**
 * `askloop ns run FILE... [tool options] [--fuel N] [--timeout-ms N] [--memory-mb N] [--json]`:
 * loads library files, statically checks everything, then runs the command
 * files in order in the sandbox, with the built-in tools of `@askloop/tools`.
 */
import { check, closeDefaultPool, createInterpreter, parse, type Diagnostic, type Program, type RunLimits, type ScriptErrorData } from '@askloop/interpreter';
import { parseArgs } from 'node:util';
import type { Command, CommandIo } from '../../io.ts';
import { UsageError } from '../../io.ts';
import { readScripts } from './read-scripts.ts';
import { buildToolSetup, TOOL_OPTIONS, TOOL_OPTIONS_USAGE } from './tool-options.ts';
import { MCP_CONFIG_OPTION, MCP_CONFIG_USAGE, withMcpTools } from '../mcp/load-mcp-config.ts';

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
first; if any check fails, the diagnostics are printed and nothing runs.
'-' reads a file from standard input.

Prints each emit on its own line as it happens; a run-time error goes to
standard error as FILE:LINE:COLUMN CODE message. With --json prints
  {"ok":bool,"emits":[…],"whispers":{…},"error":null|{"code":…,"message":…,"line":N,"column":N},
   "usage":{"fuel":N,"toolCalls":N,"wallMs":N}}
Exits 0 on success, 1 on a script error (static or at run time), 2 on a usage error.

${TOOL_OPTIONS_USAGE}
${MCP_CONFIG_USAGE}

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
        ...MCP_CONFIG_OPTION,
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
      const errorJson = error === null ? null : { code: error.code, message: error.message, line: error.line, column: error.column };
      io.stdout(`${JSON.stringify({ ok, emits, whispers, error: errorJson, usage })}\n`);
    };

    // Static checks of every file first: nothing runs if any fails.
    const loaded = await loadPrograms(positionals, io);
    // From here on every exit path closes the MCP servers (mcp.close), or they would keep the process alive.
    const mcp = await withMcpTools(buildToolSetup(values, io), values, io);
    const toolSetup = mcp.setup;
    const catalog = toolSetup.hostFor(0).catalog;
    const diagnostics = [...loaded.diagnostics];
    for (const program of loaded.programs) {
      diagnostics.push(...check(program, { mode: 'host', tools: catalog, policy: toolSetup.lists }).map((diagnostic) => ({ ...diagnostic, file: program.fileName })));
    }
    if (diagnostics.length > 0) {
      for (const { file, line, column, code, message } of diagnostics) io.stderr(`${where(file, line, column)} ${code} ${message}\n`);
      const first = diagnostics[0] as Diagnostic;
      report(false, [], {}, { code: first.code, message: first.message, line: first.line, column: first.column, frames: [] }, { fuel: 0, toolCalls: 0, wallMs: 0 });
      await mcp.close();
      return 1;
    }

    const libraries = loaded.programs.filter((program) => program.kind === 'library');
    const commands = loaded.programs.filter((program) => program.kind === 'command');
    const emits: string[] = [];
    // Whisper targets are script data: a Map (then Object.fromEntries) keeps '__proto__' and 'toString' ordinary keys.
    const whispers = new Map<string, string>();
    const usage = { fuel: 0, toolCalls: 0, wallMs: 0 };
    let error: ScriptErrorData | null = null;
    let failedFile: string | undefined;
    try {
      for (const [turn, program] of commands.entries()) {
        const interpreter = createInterpreter({ tools: toolSetup.hostFor(turn), policy: toolSetup.lists, limits });
        const result = await interpreter.run(program, {
          mode: 'host',
          libraries,
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
      await mcp.close();
      await closeDefaultPool();
    }
    if (error !== null && !json) io.stderr(`${where(failedFile, error.line, error.column)} ${error.code} ${error.message}\n`);
    report(error === null, emits, Object.fromEntries(whispers), error, usage);
    return error === null ? 0 : 1;
  },
};
