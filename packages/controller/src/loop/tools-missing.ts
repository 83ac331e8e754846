/**
 * A turn whose program the check accepted on an earlier step (it was
 * executing when its host died, or paused for a person's approval) that
 * another host now finds tools missing for: that host lacks a plugin or an
 * MCP server the first one had. Not the model's mistake, so not a HALT (which
 * would end the session for good): `LOOP_TOOLS_MISSING`, with the session as
 * it was, for a host that has them.
 */
import { LoopError } from '../errors/loop-error.ts';
import type { PreparePatch } from './prepare-turn.ts';
import type { TurnRecord } from './turn-record.ts';

/** The tool names a prepare found no tool for (`SCRIPT_TOOL_UNKNOWN`), in order, once each. */
export function unknownTools(patch: Pick<PreparePatch, 'diagnostics'>): string[] {
  const names = patch.diagnostics.filter((diagnostic) => diagnostic.code === 'SCRIPT_TOOL_UNKNOWN').map((diagnostic) => diagnostic.tool ?? diagnostic.message);
  return [...new Set(names)];
}

/** `LOOP_TOOLS_MISSING` for `record`, whose checked program names `tools` this host does not have; `done` says what was left undone. */
export function toolsMissing(record: Pick<TurnRecord, 'sid' | 'turnIndex'>, tools: readonly string[], done: string): LoopError {
  return new LoopError({
    code: 'LOOP_TOOLS_MISSING',
    message: `turn ${record.turnIndex} of session ${record.sid} was checked with ${tools.length === 1 ? 'a tool' : 'tools'} this host does not have (${tools.join(', ')}): a plugin or an MCP server is missing here, or a server no longer lists a tool it added while the session ran. ${done.charAt(0).toUpperCase()}${done.slice(1)}; continue the session on a host with the same plugins and MCP servers (askloop: the same --config and --mcp-config)`,
    sid: record.sid,
  });
}
