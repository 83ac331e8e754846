/**
 * `askloop mcp tools --mcp-config FILE [tool options]`: starts the configured
 * MCP servers, lists their tools as AskLoop sees them (name, arguments,
 * effect, approval) and whether the policy the options build allows each.
 */
import { renderCatalogueLine, type ToolSpec } from '@askloop/tools';
import { parseArgs } from 'node:util';
import { usageError } from '../../cli-error.ts';
import type { Command } from '../../io.ts';
import { printToolRows, TOOL_LIST_OPTIONS, TOOL_LIST_USAGE } from '../print-tool-rows.ts';
import { terminalSafe } from '../../progress/terminal-safe.ts';
import { buildToolSetup } from '../ns/tool-options.ts';
import { firstListing, loadMcpToolSource, mcpRegistryFactory } from './load-mcp-config.ts';

/** Characters of catalogue lines past which the note below is given: about 4,000 tokens in every turn. */
const LARGE_CATALOGUE_CHARS = 16_000;

/**
 * A note when the allowed tools' catalogue lines are long: every turn's system text carries them (a server with
 * 2,000 tools put a 1 MB text into each turn), so narrowing `--allow` to what an agent needs saves tokens each turn.
 */
function catalogueSizeNote(allowed: readonly ToolSpec[]): string | undefined {
  const chars = allowed.reduce((sum, spec) => sum + renderCatalogueLine(spec).length + 1, 0);
  if (chars <= LARGE_CATALOGUE_CHARS) return undefined;
  return `askloop mcp tools: note: the ${allowed.length} tools the policy allows add ${chars.toLocaleString('en-US')} characters (about ${Math.round(chars / 4).toLocaleString('en-US')} tokens) to every turn's system text; allow only the tools an agent needs (--allow 'tool.SERVER.Name')`;
}

/** `askloop mcp tools`. */
export const toolsCommand: Command = {
  usage: `Usage: askloop mcp tools --mcp-config FILE [tool options] [--json]

Starts every server in FILE, lists its tools as NeuroScript tools
(tool.SERVER.Name(args) — description), with their effect, whether calls need
approval, and "denied: …" when the policy from the tool options refuses them.
Exits 0, 1 when a server fails, 2 on a usage error.

${TOOL_LIST_USAGE}
`,
  // With --json a usage error (a bad --mcp-config) is the JSON envelope too, as a server that fails is.
  jsonErrors: (args) => args.includes('--json'),
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, options: TOOL_LIST_OPTIONS, allowPositionals: true, strict: true });
    if (positionals.length > 0) throw usageError(`unexpected argument '${positionals[0]}'`);
    if (values['mcp-config'] === undefined) throw usageError('--mcp-config FILE is required');
    const { policy } = buildToolSetup(values, io);
    const source = await loadMcpToolSource(values['mcp-config'], io);
    try {
      const packs = await source.toolPacks();
      // The registry a run would build: a server's tool named as a built-in one is refused there (TOOL_DUPLICATE), so here,
      // worded as the other commands word it.
      await firstListing(source, values['mcp-config'], () => mcpRegistryFactory(source, values, io)());
      const rows = packs.flatMap((pack) => pack.tools.map(({ spec }) => ({ spec, pack: pack.name })));
      printToolRows(io, rows, policy, values.json === true);
      if (values.json !== true) {
        const note = catalogueSizeNote(rows.map(({ spec }) => spec).filter((spec) => policy.check(spec).ok));
        if (note !== undefined) io.stderr(`${note}\n`);
      }
      return 0;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const thrownCode = (error as { code?: unknown } | null)?.code;
      const code = typeof thrownCode === 'string' ? thrownCode : 'MCP_CONNECT_FAILED';
      // As every text-mode error line, it ends with its code (the `@askloop/mcp` README's table has the MCP_ ones).
      if (values.json === true) io.stdout(`${JSON.stringify({ ok: false, error: { code, message } })}\n`);
      else io.stderr(`askloop mcp tools: ${terminalSafe(message)} (${terminalSafe(code)})\n`);
      return 1;
    } finally {
      await source.close();
    }
  },
};
