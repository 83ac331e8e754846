/**
 * Warnings for allow patterns of a run's agent that match no tool this host
 * has. `tool.strr.*` (a typo) or `tool.fs.*` without `--fs-root` is a valid
 * pattern, so the policy takes it and allows nothing by it: the model never
 * sees those tools and the user never learns why. A warning, not an error:
 * an agent file may be shared by hosts with other tools.
 */
import type { AskLoopPlugin } from '@askloop/controller';
import { compileToolPattern, createDefaultRegistry } from '@askloop/tools';
import { closestName } from './closest-name.ts';

/** The tools a run's host has: their names, and the groups whose tools are only known once their source lists them. */
export interface HostToolNames {
  /** The names of every tool registered up front (the built-in packs, the plugins' packs). */
  readonly names: readonly string[];
  /** The same with `tool.fs.*` (a root given), to say that `--fs-root` adds them. */
  readonly namesWithFs: readonly string[];
  /** The groups of tool sources that list their tools later (an MCP server's name), or `any` for a source that does not say. */
  readonly dynamicGroups: readonly string[] | 'any';
  /** The same as {@link names} with `tool.http.Fetch`, when an option adds it (`askloop ns … --http`), and that option, to say so. */
  readonly withHttp?: { readonly names: readonly string[]; readonly option: string };
}

/** What {@link allowPatternWarnings} compares with: the host's tools for `plugins` (and `--fs-root` when given). */
export function hostToolNames(plugins: readonly AskLoopPlugin[], cwd: string, fsRoot: string | undefined): HostToolNames {
  const pluginNames = plugins.flatMap((plugin) => (plugin.toolPacks ?? []).flatMap((pack) => pack.tools.map((tool) => tool.spec.displayName)));
  const builtIn = (withFs: boolean) => createDefaultRegistry({ http: {}, ...(withFs ? { fs: { root: fsRoot ?? cwd } } : {}) }).specs().map((spec) => spec.displayName);
  return { names: [...builtIn(fsRoot !== undefined), ...pluginNames], namesWithFs: [...builtIn(true), ...pluginNames], dynamicGroups: sourceGroups(plugins.flatMap((plugin) => plugin.toolSources ?? [])) };
}

/** The groups the tools of `sources` will have (an MCP server's name each), or `any` when a source does not say. */
export function sourceGroups(sources: readonly unknown[]): string[] | 'any' {
  const groups: string[] = [];
  for (const source of sources) {
    // An MCP source names its servers (its tools are tool.<server>.<Tool>) without starting them.
    const status = (source as { status?: () => Record<string, unknown> }).status;
    if (typeof status !== 'function') return 'any';
    groups.push(...Object.keys(status.call(source)).map((name) => name.toLowerCase()));
  }
  return groups;
}

/** An allow pattern that matches no tool of a host. */
export interface UnmatchedAllowPattern {
  /** The pattern as written. */
  readonly pattern: string;
  /** What it likely meant (`; did you mean 'tool.str.*'?`, ` (tool.fs.* is there with --fs-root DIR)`), or ''. */
  readonly hint: string;
  /**
   * Whether the host lacks the tools rather than the pattern being mistyped:
   * `tool.fs.*` without a root, or a group no tool of the host has and none
   * is a letter or two away (a plugin's, an MCP server's this host lacks).
   */
  readonly toolsMissing: boolean;
}

/** Each pattern of `allow` that matches no tool of `tools`, with what it likely meant. */
export function unmatchedAllowPatterns(allow: readonly string[], tools: HostToolNames): UnmatchedAllowPattern[] {
  const unmatched: UnmatchedAllowPattern[] = [];
  const groups = new Set(tools.names.map(groupOf));
  for (const text of allow) {
    let pattern;
    try {
      pattern = compileToolPattern(text);
    } catch {
      continue; // refused elsewhere, with its own message
    }
    if (pattern.pattern === '**' || tools.names.some((name) => pattern.matches(name))) continue;
    const group = groupOf(pattern.pattern);
    // A source's tools are listed once it starts: a pattern that may name them is not judged.
    if (tools.dynamicGroups === 'any' || (tools.dynamicGroups.length > 0 && group.includes('*')) || tools.dynamicGroups.includes(group)) continue;
    const meant = hint(pattern.pattern, group, tools, groups);
    const optionAdds = meant.startsWith(' (tool.');
    unmatched.push({ pattern: text, hint: meant, toolsMissing: optionAdds || (meant === '' && !group.includes('*') && !groups.has(group)) });
  }
  return unmatched;
}

/** One warning for each pattern of `allow` that matches no tool of `tools`, with what it likely meant. */
export function allowPatternWarnings(allow: readonly string[], tools: HostToolNames, label = 'policy.allow'): string[] {
  return unmatchedAllowPatterns(allow, tools).map(({ pattern, hint }) => `${label} '${pattern}' matches no tool of this host, so it allows nothing${hint}`);
}

/**
 * The same for `deny`: a misspelt deny pattern (`tool.htpp.*`) denies nothing
 * and the tool it meant stays allowed, which is the worse mistake of the two.
 */
export function denyPatternWarnings(deny: readonly string[], tools: HostToolNames, label = 'policy.deny'): string[] {
  return unmatchedAllowPatterns(deny, tools)
    .filter(({ hint }) => !hint.startsWith(' (tool.'))
    .map(({ pattern, hint }) => `${label} '${pattern}' matches no tool of this host, so it denies nothing${hint}`);
}

/** `str` of `tool.str.Length`. */
function groupOf(name: string): string {
  return name.toLowerCase().split('.')[1] ?? '';
}

/** What the pattern likely meant: `--fs-root`, a group or a tool name one or two letters away; else nothing. */
function hint(pattern: string, group: string, tools: HostToolNames, groups: ReadonlySet<string>): string {
  const compiled = compileToolPattern(pattern);
  // `tool.*` for "every tool": the policy's denials say `*` stays in one segment, but only once a call is refused.
  if (pattern.endsWith('*') && !pattern.endsWith('**') && tools.names.some((name) => compileToolPattern(`${pattern}*`).matches(name))) {
    return `; '*' matches one name segment after its dot: did you mean '${pattern}*' (every tool under it)?`;
  }
  if (tools.namesWithFs.some((name) => compiled.matches(name))) return ` (tool.fs.* is there with --fs-root DIR)`;
  if (tools.withHttp?.names.some((name) => compiled.matches(name)) === true) return ` (tool.http.Fetch is there with ${tools.withHttp.option})`;
  const known = [...groups, ...(tools.dynamicGroups === 'any' ? [] : tools.dynamicGroups)];
  const meantGroup = group.includes('*') || known.includes(group) ? undefined : closestName(group, known);
  if (meantGroup !== undefined) return `; did you mean '${pattern.replace(`tool.${group}.`, `tool.${meantGroup}.`)}'?`;
  const meantTool = pattern.includes('*') ? undefined : closestName(pattern, tools.names);
  return meantTool === undefined ? '' : `; did you mean '${meantTool}'?`;
}
