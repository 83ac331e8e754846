/**
 * `askloop ns tools [tool options] [--mcp-config FILE] [--config FILE] [--json]`: every tool a
 * program run by `ns run` or checked by `ns check` with the same options
 * could name — the built-in packs, `tool.fs.*` with `--fs-root`,
 * `tool.http.Fetch` with `--http`, the MCP servers of `--mcp-config`, the
 * plugins' tools and MCP servers of `--config` — with
 * its arguments, effect, whether it needs approval, and whether the policy
 * those options build allows it.
 */
import { parseArgs } from 'node:util';
import { usageError } from '../../cli-error.ts';
import type { Command } from '../../io.ts';
import { withMcpTools } from '../mcp/load-mcp-config.ts';
import { printToolRows, TOOL_LIST_OPTIONS, TOOL_LIST_USAGE } from '../print-tool-rows.ts';
import { buildToolSetup } from './tool-options.ts';
import { CONFIG_TOOLS_OPTION, CONFIG_TOOLS_USAGE, loadConfigTools } from './config-tools.ts';

/** `askloop ns tools`. */
export const toolsCommand: Command = {
  usage: `Usage: askloop ns tools [tool options] [--mcp-config FILE] [--config FILE] [--json]

Lists every tool a program could call under these options, as the program
writes it (tool.group.Name(args) — description), with its effect, whether a
call needs approval, and "denied: …" when the policy the options build
refuses it: the same options make the same policy in ns run and ns check.
Exits 0, 1 when an MCP server of --mcp-config or --config did not start, 2
on a usage error.

${TOOL_LIST_USAGE}
${CONFIG_TOOLS_USAGE}
`,
  jsonErrors: (args) => args.includes('--json'),
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, options: { ...TOOL_LIST_OPTIONS, ...CONFIG_TOOLS_OPTION }, allowPositionals: true, strict: true });
    if (positionals.length > 0) throw usageError(`unexpected argument '${positionals[0]}'`);
    const configTools = await loadConfigTools(values.config, io);
    const mcp = await withMcpTools(buildToolSetup(values, io, configTools), values, io, configTools);
    try {
      const { registry, policy } = mcp.setup;
      const rows = registry.specs().map((spec) => ({ spec, pack: registry.lookup(spec.name)?.pack ?? '' }));
      printToolRows(io, rows, policy, values.json === true);
      return 0;
    } finally {
      await mcp.close();
    }
  },
};
