/**
 * Whether a `net` need is granted by name: by a grant scope whose host is
 * written out, without `*` (`net:read:localhost:8080`, `net:read:[::1]`,
 * `net:read:internal.corp`), not only by a pattern (`*.example.com`, `**`,
 * `*`, or a grant without scopes). The http pack lets a request reach a
 * loopback, private or other special-use address only then.
 */
import type { Capability } from './capability.ts';
import { grantCovers } from './capability-match.ts';
import { splitHostPort } from './scope-match.ts';

/** True when one of `grants` covers every verb and scope of the `net` `need` with a scope naming its host. */
export function grantsNameHost(grants: readonly Capability[], need: Capability): boolean {
  if (need.scopes.length === 0) return false; // no host to name
  return need.verbs.every((verb) =>
    need.scopes.every((scope) =>
      grants.some((grant) => grant.scopes.some((pattern) => !splitHostPort(pattern).host.includes('*') && grantCovers({ ...grant, scopes: [pattern] }, need.resource, verb, scope))),
    ),
  );
}
