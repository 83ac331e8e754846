import { CliError } from '../cli-error.ts';

/**
 * Refuses a `--grant` whose resource no tool can ever need (`disk:read:/x`):
 * such a grant would be accepted and silently do nothing. `known` is every
 * resource the registry's tools declare, plus `*`.
 */
export function checkGrantResources(grants: readonly string[] | undefined, known: ReadonlySet<string>): void {
  for (const grant of grants ?? []) {
    const resource = grant.trim().split(':', 1)[0]!.toLowerCase();
    if (resource !== '*' && !known.has(resource)) {
      throw new CliError('CLI_OPTION_INVALID', `--grant ${grant}: unknown resource '${resource}'; the tools know ${[...known].sort().join(', ')} (or * for all)`);
    }
  }
}

/** The resources named by tool capabilities such as `fs:write`. */
export function capabilityResources(capabilities: Iterable<string>): Set<string> {
  const resources = new Set<string>();
  for (const capability of capabilities) resources.add(capability.split(':', 1)[0]!.toLowerCase());
  return resources;
}
