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

const NAME_PATTERN = /^tool\.[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*\.[a-z_][a-z0-9_]*$/;

/**
 * True when a canonical name (see {@link canonicalToolName}) is one a tool may
 * have: `tool.<group>.<name>`, dotted segments of letters, digits and `_`, none
 * starting with a digit. Names that fail it can never match a registered tool.
 */
export function isValidToolName(canonicalName: string): boolean {
  return NAME_PATTERN.test(canonicalName);
}
