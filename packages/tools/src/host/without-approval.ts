/**
 * A catalogue for a place that runs a program with no one to approve it (an
 * MCP client's `neuroscript_run`): a tool marked `requiresApproval` is
 * refused by the static check, with why and where it can run, instead of
 * running unasked. An agent turn pauses such a program for a person; such a
 * place has no pause, so it used to run it.
 */
import { ToolError } from '../errors/tool-error.ts';
import type { ToolRegistry } from '../registry/tool-registry.ts';
import type { HostToolCatalog } from './tool-host.ts';

/**
 * `catalog`, refusing every tool of `registry` marked `requiresApproval`
 * (`POLICY_APPROVAL_UNAVAILABLE`, which the check reports as `SCRIPT_TOOL_DENIED`):
 * `place` names where the program runs ("a program an MCP client sends"),
 * `instead` what to do instead (an agent turn).
 */
export function refuseToolsNeedingApproval(catalog: HostToolCatalog, registry: ToolRegistry, place: string, instead: string): HostToolCatalog {
  return {
    ...catalog,
    check(name, args) {
      const spec = registry.get(name);
      if (spec?.requiresApproval === true) {
        return new ToolError('POLICY_APPROVAL_UNAVAILABLE', `${spec.displayName} needs a person's approval before it runs, and ${place} has no one to ask; ${instead}`, { tool: spec.displayName });
      }
      return catalog.check(name, args);
    },
  };
}
