/**
 * `askloop ns run FILE... [tool options] [--fuel N] [--timeout-ms N] [--memory-mb N] [--json]`:
 * loads library files, statically checks everything, then runs the command
 * files in order in the sandbox, with the built-in tools of `@askloop/tools`.
 */
import { check, closeDefaultPool, createInterpreter, parse, type Diagnostic, type Program, type RunLimits, type ScriptErrorData } from '@askloop/interpreter';
import { parseArgs } from 'node:util';
import type { Command, CommandIo } from '../../io.ts';
import { integerOption } from '../../options/parse-options.ts';
import { STDIN_NAME } from '../../read-input.ts';
import { readScripts } from './read-scripts.ts';
import { buildToolSetup, TOOL_OPTIONS, TOOL_OPTIONS_USAGE } from './tool-options.ts';

/**
 * Node's timers hold at most 2^31−1 ms (a larger delay becomes 1 ms with only
 * a warning), and the interpreter adds a 250 ms grace to the wall-clock limit
 * for its own timer: rounded down, this leaves room for it.
 */
const MAX_TIMEOUT_MS = 2_147_483_000;
/** The sandbox gives an isolate at least 8 MiB (smaller limits are raised silently), so smaller values are refused. */
const MIN_MEMORY_MB = 8;
/** An isolate heap past 16 GiB is a typo, not a plan. */
const MAX_MEMORY_MB = 16_384;

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
  usage: `Usage: askloop ns run FILE... [tool options] [--fuel N] [--timeout-ms N] [--memory-mb N] [--json]

Loads the library files among FILE (scripts of func definitions), then runs
every command file in order, in a fresh sandbox context each, with the
library functions available. Every file is parsed and statically checked
first; if any check fails, the diagnostics are printed and nothing runs.
'-' reads a file from standard input.

Prints each emit on its own line as it happens; a run-time error goes to
standard error as FILE:LINE:COLUMN CODE message. With --json prints
  {"ok":true,"emits":[…],"whispers":{…},"diagnostics":[],"usage":{"fuel":N,"toolCalls":N,"wallMs":N}}
or, on a static or run-time error,
  {"ok":false,"error":{"code","message","file","line","column"},"diagnostics":[…every static diagnostic…],
   "emits":[…],"whispers":{…},"usage":{…}}
Exits 0 on success, 1 on a script error (static or at run time) or input that
is not UTF-8, 2 on a usage error or an unreadable FILE.

${TOOL_OPTIONS_USAGE}

Options:
  --fuel N          evaluation steps per command file, 1 to 2^53−1 (default 1000000).
  --timeout-ms N    wall-clock per command file, tool time included, 1 to
                    2147483000, about 24 days (default 5000).
  --memory-mb N     isolate heap per run, ${MIN_MEMORY_MB} to ${MAX_MEMORY_MB} (default 64).
  --json            print the JSON report instead of the emits.
`,
  jsonErrors: (args) => args.includes('--json'),
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
    const fuel = integerOption('fuel', values.fuel, { min: 1, max: Number.MAX_SAFE_INTEGER, unit: 'steps' });
    const wallMs = integerOption('timeout-ms', values['timeout-ms'], { min: 1, max: MAX_TIMEOUT_MS, unit: 'ms', why: "Node's timer limit" });
    const memoryMb = integerOption('memory-mb', values['memory-mb'], { min: MIN_MEMORY_MB, max: MAX_MEMORY_MB, unit: 'MiB', why: "the sandbox's minimum isolate heap is 8 MiB" });
    const limits: Partial<RunLimits> = {
      ...(fuel === undefined ? {} : { fuel }),
      ...(wallMs === undefined ? {} : { wallMs }),
      ...(memoryMb === undefined ? {} : { memoryMb }),
    };
    const json = values.json === true;

    type Usage = { fuel: number; toolCalls: number; wallMs: number };
    const located = ({ code, message, file, line, column }: { code: string; message: string; file?: string | undefined; line: number; column: number }) => ({ code, message, file: file ?? STDIN_NAME, line, column });
    const report = (emits: readonly string[], whispers: Record<string, string>, error: ReturnType<typeof located> | null, diagnostics: readonly Diagnostic[], usage: Usage): void => {
      if (!json) return;
      const body = { emits, whispers, diagnostics: diagnostics.map(located), usage };
      io.stdout(`${JSON.stringify(error === null ? { ok: true, ...body } : { ok: false, error, ...body })}\n`);
    };

    // Static checks of every file first: nothing runs if any fails.
    const toolSetup = buildToolSetup(values, io);
    const catalog = toolSetup.hostFor(0).catalog;
    const loaded = await loadPrograms(positionals, io);
    const diagnostics = [...loaded.diagnostics];
    for (const program of loaded.programs) {
      diagnostics.push(...check(program, { mode: 'host', tools: catalog, policy: toolSetup.lists }).map((diagnostic) => ({ ...diagnostic, file: program.fileName })));
    }
    if (diagnostics.length > 0) {
      for (const { file, line, column, code, message } of diagnostics) io.stderr(`${where(file, line, column)} ${code} ${message}\n`);
      report([], {}, located(diagnostics[0] as Diagnostic), diagnostics, { fuel: 0, toolCalls: 0, wallMs: 0 });
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
      await closeDefaultPool();
    }
    if (error !== null && !json) io.stderr(`${where(failedFile, error.line, error.column)} ${error.code} ${error.message}\n`);
    report(emits, Object.fromEntries(whispers), error === null ? null : located({ ...error, file: failedFile }), [], usage);
    return error === null ? 0 : 1;
  },
};
