/**
 * `askloop ns check FILE... [tool options] [--agent] [--json]`: parses and
 * statically checks NeuroScript files before anything runs, against the real
 * tool registry and policy of `@askloop/tools`.
 */
import { parseAndCheck, type CheckContext, type Diagnostic } from '@askloop/interpreter';
import { parseArgs } from 'node:util';
import type { Command } from '../../io.ts';
import { STDIN_NAME } from '../../read-input.ts';
import { readScripts } from './read-scripts.ts';
import { buildToolSetup, TOOL_OPTIONS, TOOL_OPTIONS_USAGE } from './tool-options.ts';

/** `askloop ns check`. */
export const checkCommand: Command = {
  usage: `Usage: askloop ns check FILE... [tool options] [--agent] [--json]

Parses each FILE (a library script or a command script; '-' reads standard
input) and runs the static checks: structure, every tool reference against
the built-in tools of @askloop/tools (names and argument counts), and the
tool policy (allow/deny globs, trust, capabilities) — the same policy
'askloop ns run' enforces while running.
Prints one line per problem as FILE:LINE:COLUMN CODE message, or with --json
  {"ok":true,"diagnostics":[]}, or
  {"ok":false,"error":{"code","message","file","line","column"},"diagnostics":[{"code","message","file","line","column"},…]}
(error is the first diagnostic). Exits 0 when clean, 1 when there is any
diagnostic or the input is not UTF-8, 2 on a usage error or an unreadable FILE.

${TOOL_OPTIONS_USAGE}

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
        agent: { type: 'boolean' },
        json: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
    const tools = buildToolSetup(values, io);
    const scripts = await readScripts(positionals, io);
    const context: CheckContext = { mode: values.agent ? 'agent' : 'host', tools: tools.hostFor(0).catalog, policy: tools.lists };

    const diagnostics: Diagnostic[] = [];
    for (const { fileName, source } of scripts) {
      const result = parseAndCheck(source, { ...context, fileName });
      diagnostics.push(...result.diagnostics.map((diagnostic) => ({ ...diagnostic, file: fileName })));
    }

    if (values.json) {
      const report = diagnostics.map(({ code, message, line, column, file }) => ({ code, message, file: file ?? STDIN_NAME, line, column }));
      io.stdout(`${JSON.stringify(report.length === 0 ? { ok: true, diagnostics: [] } : { ok: false, error: report[0], diagnostics: report })}\n`);
    } else {
      for (const { file, line, column, code, message } of diagnostics) io.stdout(`${file}:${line}:${column} ${code} ${message}\n`);
      const files = `${positionals.length} file${positionals.length === 1 ? '' : 's'}`;
      io.stderr(diagnostics.length === 0 ? `ok: ${files} checked, no problems\n` : `${diagnostics.length} problem${diagnostics.length === 1 ? '' : 's'} in ${files}\n`);
    }
    return diagnostics.length === 0 ? 0 : 1;
  },
};
