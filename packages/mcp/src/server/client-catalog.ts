/**
 * What a program an MCP client sends may call: the server's catalogue with
 * every tool that needs a person's approval refused, since no one here can
 * give it. The check of `neuroscript_run`/`neuroscript_check` and the
 * `askloop://catalogue` resource both come from here, so the resource lists
 * exactly the tools the check lets a program call.
 */
import { createToolHost, refuseToolsNeedingApproval, renderCatalogue, type HostToolCatalog, type Policy, type ToolRegistry, type ToolSpec } from '@askloop/tools';

/**
 * `catalog` refusing every tool of `registry` marked `requiresApproval` (an MCP server's `approval: always`, a
 * destructive tool): the check refuses it (`SCRIPT_TOOL_DENIED`, `POLICY_APPROVAL_UNAVAILABLE`) rather than run it unasked.
 */
export function clientCatalog(catalog: HostToolCatalog, registry: ToolRegistry): HostToolCatalog {
  return refuseToolsNeedingApproval(catalog, registry, 'a program an MCP client sends', "run it in an agent turn instead (the ask tool, or askloop run), which pauses for a person's approve or deny");
}

/**
 * The `askloop://catalogue` text: the catalogue lines of the tools {@link clientCatalog} lets a program call, then
 * the tools the policy allows that it refuses for want of an approver, named so a client does not take them for
 * missing (and knows where they can run).
 */
export function clientCatalogueText(registry: ToolRegistry, policy: Policy, session: string): string {
  const catalog = clientCatalog(createToolHost({ registry, policy, session, turn: 0 }).catalog, registry);
  const callable: ToolSpec[] = [];
  const needApproval: string[] = [];
  for (const spec of registry.specs()) {
    if (catalog.check(spec.name) === undefined) callable.push(spec);
    else if (spec.requiresApproval === true && policy.check(spec).ok) needApproval.push(spec.displayName);
  }
  const text = renderCatalogue(callable);
  if (needApproval.length === 0) return text;
  return `${text}\n\nAllowed by the policy but not callable here, since each needs a person's approval and a program an MCP client sends has no one to ask (an agent turn, the ask tool or askloop run, pauses for it): ${needApproval.sort().join(', ')}`;
}
