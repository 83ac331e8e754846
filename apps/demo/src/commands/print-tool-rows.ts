/**
 * The tool list of `askloop ns tools` and `askloop mcp tools`: one line per
 * tool as a program calls it (`tool.group.Name(args) — description`), with
 * its effect, whether a call needs approval, and why the policy the options
 * build refuses it; or, with `--json`, one object per tool.
 */
import type { Policy, ToolSpec } from '@askloop/tools';
import { renderCatalogueLine } from '@askloop/tools';
import type { CommandIo } from '../io.ts';
import { stdoutText } from '../loop/print-loop-result.ts';
import { MCP_CONFIG_OPTION, MCP_CONFIG_USAGE } from './mcp/load-mcp-config.ts';
import { TOOL_OPTIONS, TOOL_OPTIONS_USAGE } from './ns/tool-options.ts';

/** `parseArgs` options of a tool list: the tool options, `--mcp-config` and `--json`. */
export const TOOL_LIST_OPTIONS = { ...TOOL_OPTIONS, ...MCP_CONFIG_OPTION, json: { type: 'boolean' } } as const;

/** Usage lines of {@link TOOL_LIST_OPTIONS}. */
export const TOOL_LIST_USAGE = `${TOOL_OPTIONS_USAGE}
${MCP_CONFIG_USAGE}
  --json            print [{"name","pack","effect","requiresApproval","allowed"}] instead.`;

/** One tool of the list: its spec and the pack it comes from. */
export interface ToolRow {
  readonly spec: ToolSpec;
  readonly pack: string;
}

/** Prints `rows` (text, or JSON `[{"name","pack","effect","requiresApproval","allowed"}]`), each checked against `policy`. */
export function printToolRows(io: CommandIo, rows: readonly ToolRow[], policy: Policy, json: boolean): void {
  const checked = rows.map(({ spec, pack }) => {
    const decision = policy.check(spec);
    return { spec, pack, denied: decision.ok ? undefined : decision.error.message };
  });
  if (json) {
    io.stdout(`${JSON.stringify(checked.map(({ spec, pack, denied }) => ({ name: spec.displayName, pack, effect: spec.effect, requiresApproval: spec.requiresApproval === true, allowed: denied === undefined })))}\n`);
    return;
  }
  for (const { spec, denied } of checked) {
    // The catalogue line already marks an effect other than read ([write], [external]): said once.
    const notes = [...(spec.effect === 'read' ? ['read'] : []), ...(spec.requiresApproval === true ? ['needs approval'] : []), ...(denied === undefined ? [] : [`denied: ${denied}`])];
    // A server writes the descriptions (and the tools' names): escaped on a terminal, as any model or tool text is.
    io.stdout(`${stdoutText(io, renderCatalogueLine(spec))}${notes.length === 0 ? '' : `  [${stdoutText(io, notes.join('; '))}]`}\n`);
  }
}
