/**
 * `askloop ns check FILE... [tool options] [--agent] [--json]`: parses and
 * statically checks NeuroScript files before anything runs, against the real
 * tool registry and policy of `@askloop/tools`.
 */
import { PROGRAM_GLOBALS } from '@askloop/controller';
import { check, findDuplicateFunctions, findFunctionCallProblems, MAX_SOURCE_LENGTH, parseBounded, type CheckContext, type Diagnostic, type Program } from '@askloop/interpreter';
import { parseArgs } from 'node:util';
import type { Command } from '../../io.ts';
import { STDIN_NAME } from '../../read-input.ts';
import { withMissingToolHint } from './missing-tool-hint.ts';
import { readScripts } from './read-scripts.ts';
import { buildToolSetup, TOOL_OPTIONS, TOOL_OPTIONS_USAGE } from './tool-options.ts';
import { MCP_CONFIG_OPTION, MCP_CONFIG_USAGE, withMcpTools } from '../mcp/load-mcp-config.ts';
import { CONFIG_TOOLS_OPTION, CONFIG_TOOLS_USAGE, loadConfigTools } from './config-tools.ts';

/** `askloop ns check`. */
export const checkCommand: Command = {
  usage: `Usage: askloop ns check FILE... [tool options] [--mcp-config FILE] [--config FILE] [--agent] [--json]

Parses each FILE (a library script or a command script; '-' reads standard
input) and runs the static checks: structure, every tool reference against
the built-in tools of @askloop/tools (names and argument counts), and the
tool policy (allow/deny globs, trust, capabilities) — the same policy
'askloop ns run' enforces while running — and, across the FILEs as 'ns run'
loads them together, one definition per function name and (when a command
script is among them) calls of defined functions with fitting argument counts.
Prints one line per problem as FILE:LINE:COLUMN CODE message (warnings as
FILE:LINE:COLUMN warning CODE message), or with --json
  {"ok":true,"diagnostics":[…warnings]}, or
  {"ok":false,"error":{"code","message","file","line","column"},"diagnostics":[{"code","severity","kind","message","file","line","column"},…]}
(error is the first error diagnostic). Exits 0 when there is no error
(warnings allowed), 1 when there is any, the input is not UTF-8, or an MCP
server of --mcp-config did not start (its MCP_ code), 2 on a usage error or an
unreadable FILE.

${TOOL_OPTIONS_USAGE}
${MCP_CONFIG_USAGE}
${CONFIG_TOOLS_USAGE}

Options:
  --agent       check each FILE as an agent turn's ACTIONS: exactly one
                command block, no definitions, no ask or promptuser.
  --json        print the JSON report instead of lines.
`,
  jsonErrors: (args) => args.includes('--json'),
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        ...TOOL_OPTIONS,
        ...MCP_CONFIG_OPTION,
        ...CONFIG_TOOLS_OPTION,
        agent: { type: 'boolean' },
        json: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
    const scripts = await readScripts(positionals, io);
    const configTools = await loadConfigTools(values.config, io);
    const mcp = await withMcpTools(buildToolSetup(values, io, configTools), values, io, configTools);
    await mcp.close(); // the check needs the MCP servers' tool lists only
    // The names a run binds: an agent turn's (the loop's userdata, sid, turn_index); `ns run` binds none.
    const globals = new Set(values.agent ? PROGRAM_GLOBALS : []);
    const context: CheckContext = { mode: values.agent ? 'agent' : 'host', tools: mcp.setup.catalog, globals };

    const diagnostics: Diagnostic[] = [];
    const parsedPrograms: Program[] = [];
    for (const { fileName, source } of scripts) {
      // Bounded: large sources parse in a supervised worker or are refused, never at the host's expense.
      // As `ns run` parses them; under --agent, as the loop parses a model's program (64 KiB at most).
      const parsed = await parseBounded(source, { fileName, ...(values.agent ? {} : { maxLength: MAX_SOURCE_LENGTH }) });
      if (parsed.ok) parsedPrograms.push(parsed.program);
      const result = { diagnostics: parsed.ok ? check(parsed.program, context) : parsed.diagnostics };
      diagnostics.push(...result.diagnostics.map((diagnostic) => withMissingToolHint({ ...diagnostic, file: fileName }, mcp.setup.optionTools)));
    }
    // The rule across files that `ns run` enforces when it loads them together: one definition per function name.
    diagnostics.push(...findDuplicateFunctions(parsedPrograms.filter((program) => program.kind === 'library')));
    // And, when a command file is among them, that every function call names a defined function with a fitting count.
    if (parsedPrograms.some((program) => program.kind !== 'library')) diagnostics.push(...findFunctionCallProblems(parsedPrograms, context));
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;

    if (values.json) {
      const report = diagnostics.map(({ code, severity, kind, message, line, column, file }) => ({ code, severity, kind, message, file: file ?? STDIN_NAME, line, column }));
      const firstError = report.find((diagnostic) => diagnostic.severity === 'error');
      io.stdout(`${JSON.stringify(firstError === undefined ? { ok: true, diagnostics: report } : { ok: false, error: firstError, diagnostics: report })}\n`);
    } else {
      for (const { file, line, column, code, severity, message } of diagnostics) io.stdout(`${file}:${line}:${column} ${severity === 'warning' ? 'warning ' : ''}${code} ${message}\n`);
      const files = `${positionals.length} file${positionals.length === 1 ? '' : 's'}`;
      const warnings = diagnostics.length - errors;
      const warned = warnings === 0 ? '' : `, ${warnings} warning${warnings === 1 ? '' : 's'}`;
      // The files the problems are in, of the files checked: "2 problems in 3 files" read as spread over all three.
      const failing = new Set(diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map((diagnostic) => diagnostic.file)).size;
      const where = failing === positionals.length ? files : `${failing} of ${files}`;
      io.stderr(errors === 0 ? `ok: ${files} checked, no problems${warned}\n` : `${errors} problem${errors === 1 ? '' : 's'} in ${where}${warned}\n`);
    }
    return errors === 0 ? 0 : 1;
  },
};
