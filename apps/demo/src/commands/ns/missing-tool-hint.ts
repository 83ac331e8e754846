/**
 * A program's call of a tool an option would add — `tool.fs.Read` without
 * `--fs-root`, `tool.http.Fetch` without `--http` — is `SCRIPT_TOOL_UNKNOWN`
 * to the check, as it is to a model, whose host decides its tools. A person
 * running `askloop ns check` or `ns run` can add them: the message says which
 * option does, and what else the policy then needs.
 */
import type { HostToolNames } from '../../options/allow-pattern-warnings.ts';

/** `found` with the option that adds its unknown tool named, or `found` itself. */
export function withMissingToolHint<T extends { readonly code: string; readonly message: string; readonly tool?: string }>(found: T, tools: HostToolNames): T {
  if (found.code !== 'SCRIPT_TOOL_UNKNOWN' || found.tool === undefined) return found;
  // Tool names match case-insensitively.
  const name = found.tool.toLowerCase();
  const among = (names: readonly string[]): boolean => names.some((known) => known.toLowerCase() === name);
  if (among(tools.names)) return found;
  if (among(tools.namesWithFs)) return { ...found, message: `${found.message} Here: --fs-root DIR adds the tool.fs.* tools, confined to DIR (they also need --allow 'tool.fs.*' and an fs grant, e.g. --grant 'fs:read:/**').` };
  if (tools.withHttp !== undefined && among(tools.withHttp.names)) return { ...found, message: `${found.message} Here: ${tools.withHttp.option} adds tool.http.Fetch (it also needs --allow 'tool.http.Fetch' and a net grant, e.g. --grant 'net:read:example.com').` };
  return found;
}
