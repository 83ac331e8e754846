import type { AskLoopPlugin } from '@askloop/controller';
import { createDefaultRegistry, isToolError, parseGrant, type Capability } from '@askloop/tools';
import { CliError } from '../cli-error.ts';
import { closestName } from './closest-name.ts';

/**
 * Refuses a `--grant` whose resource no tool can ever need (`disk:read:/x`):
 * such a grant would be accepted and silently do nothing. `known` is every
 * resource the tools declare (the built-in ones and the plugins'), plus `*`.
 */
export function checkGrantResources(grants: readonly string[] | undefined, known: ReadonlySet<string>): void {
  for (const grant of grants ?? []) {
    const resource = grant.trim().split(':', 1)[0]!.toLowerCase();
    if (resource !== '*' && !known.has(resource) && !known.has('*')) {
      const meant = closestName(resource, known);
      throw new CliError('CLI_OPTION_INVALID', `--grant ${grant}: unknown resource '${resource}'${meant === undefined ? '' : ` (did you mean '${meant}'?)`}; the tools know ${[...known].sort().join(', ')} (or * for all)`);
    }
  }
}

/** The resources named by tool capabilities such as `fs:write`. */
export function capabilityResources(capabilities: Iterable<string>): Set<string> {
  const resources = new Set<string>();
  for (const capability of capabilities) resources.add(capability.split(':', 1)[0]!.toLowerCase());
  return resources;
}

/**
 * The capabilities the tools of `plugins` declare: a `--grant` may name their
 * resources (`notes:write:todo`). A tool that declares none but computes its
 * needs per call (`scopes`) may need any resource: then `*` is returned,
 * and every resource is accepted.
 */
export function pluginToolCapabilities(plugins: readonly AskLoopPlugin[]): string[] {
  const tools = plugins.flatMap((plugin) => (plugin.toolPacks ?? []).flatMap((pack) => pack.tools));
  if (tools.some((tool) => tool.spec.scopes !== undefined && tool.spec.capabilities.length === 0)) return ['*'];
  return tools.flatMap((tool) => tool.spec.capabilities);
}

/**
 * Parses the `--grant` options of a command: each must name a resource some
 * built-in tool, a tool of the loaded plugins (`pluginCapabilities`) or an
 * MCP server (`mcp:call:<server>`) can need, and parse as a capability;
 * either failure is `CLI_OPTION_INVALID` naming the grant.
 */
export function parseGrantOptions(grants: readonly string[] | undefined, cwd: string, pluginCapabilities: readonly string[] = []): Capability[] {
  // Every resource any tool can need, plus `mcp`, so a grant naming another one is refused, not ignored.
  const capabilities = [...createDefaultRegistry({ fs: { root: cwd }, http: {} }).specs().flatMap((spec) => spec.capabilities), 'mcp:call', ...pluginCapabilities];
  checkGrantResources(grants, capabilityResources(capabilities));
  const parsed = (grants ?? []).map((text) => {
    try {
      return parseGrant(text);
    } catch (error) {
      throw new CliError('CLI_OPTION_INVALID', `--grant ${text}: ${isToolError(error) ? error.message : String(error)}`);
    }
  });
  checkGrantVerbs(grants ?? [], parsed, capabilities);
  return parsed;
}

/**
 * Refuses a grant verb no tool needs of its resource (`fs:raed:/**`): the
 * grant would be taken and grant nothing, and the refusal that follows
 * (`needs fs:read:/a.txt`) hides the typo. Any verb goes for a resource a
 * tool computes its needs for (`*` among the capabilities).
 */
function checkGrantVerbs(texts: readonly string[], grants: readonly Capability[], capabilities: readonly string[]): void {
  if (capabilities.includes('*')) return;
  const verbs = new Map<string, Set<string>>();
  for (const capability of capabilities) {
    const [resource = '', verbText = ''] = capability.toLowerCase().split(':');
    const known = verbs.get(resource) ?? new Set<string>();
    for (const verb of verbText.split(',')) if (verb !== '') known.add(verb);
    verbs.set(resource, known);
  }
  grants.forEach((grant, index) => {
    const known = verbs.get(grant.resource);
    if (known === undefined) return;
    for (const verb of grant.verbs) {
      if (verb === '*' || known.has(verb)) continue;
      const meant = closestName(verb, known);
      throw new CliError('CLI_OPTION_INVALID', `--grant ${texts[index]}: no tool needs '${grant.resource}:${verb}'${meant === undefined ? '' : `; did you mean '${meant}'?`} (the verbs of ${grant.resource}: ${[...known].sort().join(', ')}, or *)`);
    }
  });
}
