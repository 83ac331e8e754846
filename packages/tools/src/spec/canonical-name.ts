/**
 * Canonical tool names (reference §2.1): lower case, every leading `tool.`
 * stripped, then `tool.` prepended. So `tool.STR.toupper`, `str.ToUpper` and
 * `tool.tool.str.toupper` all name `tool.str.toupper`.
 */

/** The canonical, lower-case name of a tool: `tool.<group>.<name>`. */
export function canonicalToolName(name: string): string {
  let rest = name.trim().toLowerCase();
  while (rest.startsWith('tool.')) rest = rest.slice('tool.'.length);
  return `tool.${rest}`;
}
