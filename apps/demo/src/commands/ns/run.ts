/**
 * `askloop ns run FILE... [tool options] [--fuel N] [--timeout-ms N] [--memory-mb N] [--userdata JSON] [--json]`:
 * loads library files, statically checks everything, then runs the command
 * files in order in the sandbox, with the built-in tools of `@askloop/tools`.
 */
import { createInterpreter, createSandboxPool, findDuplicateFunctions, MAX_SOURCE_LENGTH, parseBounded, resolveLimits, toolsAtRunStart, type Diagnostic, type JsonValue, type PreparedProgram, type Program, type ScriptErrorData } from '@askloop/interpreter';
import { parseArgs } from 'node:util';
import { CliError } from '../../cli-error.ts';
import type { Command, CommandIo } from '../../io.ts';
import { RUN_LIMIT_OPTIONS, RUN_LIMIT_OPTIONS_USAGE, runLimitOptions } from '../../options/run-limit-options.ts';
import { STDIN_NAME } from '../../read-input.ts';
import { knownSecretNames } from '../../known-secret-names.ts';
import { createSecretRedactor } from '../../redact-secrets.ts';
import { withMissingToolHint } from './missing-tool-hint.ts';
import { readScripts } from './read-scripts.ts';
import { buildToolSetup, TOOL_OPTIONS, TOOL_OPTIONS_USAGE } from './tool-options.ts';
import { MCP_CONFIG_OPTION, MCP_CONFIG_USAGE, withMcpTools } from '../mcp/load-mcp-config.ts';
import { CONFIG_TOOLS_OPTION, CONFIG_TOOLS_USAGE, loadConfigTools } from './config-tools.ts';


async function loadPrograms(files: readonly string[], io: CommandIo): Promise<{ programs: Program[]; diagnostics: Diagnostic[] }> {
  const programs: Program[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { fileName, source } of await readScripts(files, io)) {
    // A file of the user's own, a library above all, may be as long as `parse` takes; the 64 KiB cap is for a model's program.
    const parsed = await parseBounded(source, { fileName, maxLength: MAX_SOURCE_LENGTH });
    if (parsed.ok) programs.push(parsed.program);
    else diagnostics.push(...parsed.diagnostics.map((diagnostic) => ({ ...diagnostic, file: fileName })));
  }
  return { programs, diagnostics };
}

/** A program that reads `userdata` in a run given no --userdata: the message says how to give it here. */
function withUserdataHint<T extends { readonly code: string; readonly message: string }>(found: T): T {
  if (found.code !== 'SCRIPT_VARIABLE_UNSET' || !found.message.startsWith("Variable 'userdata' ")) return found;
  return { ...found, message: `${found.message} Here: askloop ns run FILE --userdata '{"subject": "the task"}'.` };
}

/** `--userdata JSON`: any JSON value; text that is not JSON is `CLI_OPTION_INVALID`, with the parser's reason. */
function userdataOption(text: string | undefined): JsonValue | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new CliError('CLI_OPTION_INVALID', `--userdata: not JSON (${(error as Error).message}); write it as '{"subject": "the task"}'`);
  }
}

/**
 * `FILE:LINE:COLUMN`; `FILE:LINE` for an error known only to a line (column 0: a memory limit, where the run last
 * checked in); `FILE` alone for an error with no place in the program (line 0: a worker that died).
 */
const where = (file: string | undefined, line: number, column: number): string => {
  const name = file ?? '<script>';
  if (!(line > 0)) return name;
  return column > 0 ? `${name}:${line}:${column}` : `${name}:${line}`;
};

/** `askloop ns run`. */
export const runCommand: Command = {
  usage: `Usage: askloop ns run FILE... [tool options] [--mcp-config FILE] [--config FILE] [--fuel N] [--timeout-ms N] [--memory-mb N] [--userdata JSON] [--json]

Loads the library files among FILE (scripts of func definitions), then runs
every command file in order, in a fresh sandbox context each, with the
library functions available. Every file is parsed and statically checked
first (with the same tool policy that authorizes the calls, literal
arguments included); if any check fails, the diagnostics are printed and
nothing runs. Warnings are printed and do not stop the run.
'-' reads a file from standard input.

Tools that need a person's approval (requiresApproval; an MCP server's
tools under approval: destructive or always) run without a pause here:
running the command is your approval. An agent turn (askloop run) pauses
such a program for approve or deny, and a program an MCP client sends to
askloop mcp serve may not call them.

Prints each emit on its own line as it happens; a run-time error goes to
standard error as FILE:LINE:COLUMN CODE message. With --json prints
  {"ok":true,"emits":[…],"whispers":{…},"diagnostics":[…warnings],"usage":{"fuel":N,"toolCalls":N,"wallMs":N}}
or, on a static or run-time error,
  {"ok":false,"error":{"code","kind","message","file","line","column"},
   "diagnostics":[{"code","severity","kind","message","file","line","column"},…],
   "emits":[…],"whispers":{…},"usage":{…}}
Exits 0 on success, 1 on a script error (static or at run time), input that
is not UTF-8, or an MCP server of --mcp-config that did not start (its MCP_
code), 2 on a usage error or an unreadable FILE.

${TOOL_OPTIONS_USAGE}
${MCP_CONFIG_USAGE}
${CONFIG_TOOLS_USAGE}

Options (quotas apply to each command file):
${RUN_LIMIT_OPTIONS_USAGE}
  --userdata JSON   bind the global userdata to this JSON value, as an agent's
                    turn binds the task ('{"subject": "count the words"}'), to
                    try a turn's program here. Without it userdata is unset.
  --json            print the JSON report instead of the emits.
`,
  jsonErrors: (args) => args.includes('--json'),
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        ...TOOL_OPTIONS,
        ...MCP_CONFIG_OPTION,
        ...CONFIG_TOOLS_OPTION,
        ...RUN_LIMIT_OPTIONS,
        userdata: { type: 'string' },
        json: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
    const limits = runLimitOptions(values);
    const runLimits = resolveLimits(limits);
    const json = values.json === true;
    const userdata = userdataOption(values.userdata);

    type Usage = { fuel: number; toolCalls: number; wallMs: number };
    const located = ({ code, kind, message, file, line, column }: { code: string; kind: string; message: string; file?: string | undefined; line: number; column: number }) => ({ code, kind, message, file: file ?? STDIN_NAME, line, column });
    const report = (emits: readonly string[], whispers: Record<string, string>, error: (ReturnType<typeof located> & { severity?: string }) | null, diagnostics: readonly Diagnostic[], usage: Usage): void => {
      if (!json) return;
      const body = { emits, whispers, diagnostics: diagnostics.map((diagnostic) => ({ ...located(diagnostic), severity: diagnostic.severity })), usage };
      io.stdout(`${JSON.stringify(redact(error === null ? { ok: true, ...body } : { ok: false, error, ...body }))}\n`);
    };

    // Static checks of every file first (each file, then each command with the libraries): nothing runs if any fails.
    const loaded = await loadPrograms(positionals, io);
    // From here on every exit path closes the MCP servers (mcp.close), or they would keep the process alive.
    const configTools = await loadConfigTools(values.config, io);
    const mcp = await withMcpTools(buildToolSetup(values, io, configTools), values, io, configTools);
    const toolSetup = mcp.setup;
    // What it prints passes the redactor `run`, `show` and the viewer use: a program can rebuild a key of the
    // environment from parts ("sk-test-" + "…"), which the tool host's redaction of tool results never sees. Made once
    // the config and --mcp-config are read: a variable they hand to an MCP server or a plugin (`${NAME}` in env or headers, `tokenEnv:`) holds a key too.
    const redact = createSecretRedactor(io.env, knownSecretNames(io));
    const libraries = loaded.programs.filter((program) => program.kind === 'library');
    const commands = loaded.programs.filter((program) => program.kind === 'command');
    const pool = createSandboxPool();
    const interpreter = createInterpreter({ pool, limits });
    const found = new Map<string, Diagnostic>();
    for (const diagnostic of loaded.diagnostics) found.set(JSON.stringify(diagnostic), diagnostic);
    const prepared: { program: Program; prepared: PreparedProgram }[] = [];
    for (const program of [...libraries, ...commands]) {
      const isCommand = program.kind === 'command';
      // The names the run binds (`userdata` with --userdata): a name nothing else sets is refused or warned about.
      const result = await interpreter.prepare(program, { mode: 'host', catalog: toolSetup.catalog, globalNames: userdata === undefined ? [] : ['userdata'], ...(isCommand ? { libraries } : {}) });
      for (const diagnostic of result.diagnostics) found.set(JSON.stringify(diagnostic), diagnostic);
      if (result.ok && isCommand) prepared.push({ program, prepared: result.prepared });
    }
    // Also when no command file loads the libraries together: ns check reports the same.
    for (const diagnostic of findDuplicateFunctions(libraries)) found.set(JSON.stringify(diagnostic), diagnostic);
    const diagnostics = [...found.values()].map((diagnostic) => withMissingToolHint(userdata === undefined ? withUserdataHint(diagnostic) : diagnostic, toolSetup.optionTools));
    // With --json the report carries them: standard error stays as empty as for a run-time error.
    if (!json) for (const { file, line, column, code, severity, message } of diagnostics) io.stderr(`${where(file, line, column)} ${severity === 'warning' ? 'warning ' : ''}${code} ${message}\n`);
    const firstError = diagnostics.find((diagnostic) => diagnostic.severity === 'error');
    if (firstError !== undefined) {
      await pool.close();
      await mcp.close();
      report([], {}, { ...located(firstError), severity: firstError.severity }, diagnostics, { fuel: 0, toolCalls: 0, wallMs: 0 });
      return 1;
    }

    // A file of functions only (or an empty one) has nothing to run: say so, rather than end as silently as a run that emits nothing.
    if (prepared.length === 0 && !json) {
      const named = loaded.programs.map((program) => program.fileName).join(', ');
      io.stderr(`askloop ns run: no command block in ${named}: nothing ran (a library's functions run when a command block calls them: give a command file too)\n`);
    }

    const emits: string[] = [];
    // Whisper targets are script data: a Map (then Object.fromEntries) keeps '__proto__' and 'toString' ordinary keys.
    const whispers = new Map<string, string>();
    const usage = { fuel: 0, toolCalls: 0, wallMs: 0 };
    let error: ScriptErrorData | null = null;
    let failedFile: string | undefined;
    const definedIn = new Map<string, string | undefined>();
    for (const library of libraries) for (const definition of library.functions) if (!definedIn.has(definition.name)) definedIn.set(definition.name, library.fileName);
    try {
      for (const [turn, { program, prepared: ready }] of prepared.entries()) {
        // The run's tool calls end with it: at its deadline, and when it returns (pending calls are aborted).
        const runEnded = new AbortController();
        // The deadline is a backstop past the run's own wall clock (which ends the run with SCRIPT_TIMEOUT first).
        // Both count from when a sandbox worker takes the run (`onStart`), not from before a wait for a worker.
        const { call, onStart } = toolsAtRunStart(() =>
          toolSetup.hostFor(turn, { signal: runEnded.signal, deadline: Date.now() + runLimits.wallMs + 1000, maxResultLength: runLimits.stringLength, maxResultItems: runLimits.collectionSize }),
        );
        const result = await interpreter
          .execute(ready, {
            tools: { call },
            ...(userdata === undefined ? {} : { userdata }),
            onStart,
            onEmit: (text) => {
              if (!json) io.stdout(`${redact(text) as string}\n`);
            },
          })
          .finally(() => runEnded.abort());
        emits.push(...result.emits);
        for (const [target, text] of Object.entries(result.whispers)) {
          const previous = whispers.get(target);
          whispers.set(target, previous === undefined ? text : `${previous}\n${text}`);
        }
        usage.fuel += result.usage.fuel;
        usage.toolCalls += result.usage.toolCalls;
        usage.wallMs += result.usage.wallMs;
        if (result.error !== null) {
          error = userdata === undefined ? withUserdataHint(result.error) : result.error;
          // The innermost frame names the function the error is in: its library's file, not the command's.
          const innermost = result.error.frames[0]?.name;
          failedFile = (innermost === undefined ? undefined : definedIn.get(innermost)) ?? program.fileName;
          break;
        }
      }
    } finally {
      await pool.close();
      await mcp.close();
    }
    if (error !== null && !json) io.stderr(`${where(failedFile, error.line, error.column)} ${error.code} ${redact(error.message) as string}\n`);
    report(emits, Object.fromEntries(whispers), error === null ? null : located({ ...error, file: failedFile }), diagnostics, usage);
    return error === null ? 0 : 1;
  },
};
