/**
 * Whether grants satisfy a need (reference §2.4). A need is split into
 * atomic (resource, verb, scope) triples and each triple must be covered by
 * some grant: same resource (or grant `*`), the verb listed (or grant `*`),
 * and the scope matched by a grant scope (or the grant has no scopes, which
 * means every scope). A need without scopes only asks for resource and verb —
 * that is what the static check uses before arguments are known.
 */
import type { Capability } from './capability.ts';
import { scopeMatches } from './scope-match.ts';

/** True when `grant` covers one atomic need: `resource`, `verb` (undefined: any) and `scope` (undefined: none in particular). */
export function grantCovers(grant: Capability, resource: string, verb: string | undefined, scope: string | undefined): boolean {
  if (grant.resource !== '*' && grant.resource !== resource) return false;
  if (verb !== undefined && !grant.verbs.includes('*') && !grant.verbs.includes(verb)) return false;
  if (scope === undefined || grant.scopes.length === 0) return true;
  return grant.scopes.some((pattern) => scopeMatches(resource, pattern, scope));
}

/** The first atomic part of `need` no grant covers, as a capability, or undefined when all are covered. */
export function findUncoveredNeed(need: Capability, grants: readonly Capability[]): Capability | undefined {
  const verbs = need.verbs.length === 0 ? [undefined] : need.verbs;
  const scopes = need.scopes.length === 0 ? [undefined] : need.scopes;
  for (const verb of verbs) {
    for (const scope of scopes) {
      if (!grants.some((grant) => grantCovers(grant, need.resource, verb, scope))) {
        return { resource: need.resource, verbs: verb === undefined ? ['*'] : [verb], scopes: scope === undefined ? [] : [scope] };
      }
    }
  }
  return undefined;
}

/** True when `grants` satisfy every part of `need`. */
export function grantsSatisfy(grants: readonly Capability[], need: Capability): boolean {
  return findUncoveredNeed(need, grants) === undefined;
}
