/**
 * Capabilities (reference §2.4): `resource:verb1,verb2[:scope1,scope2]`.
 * Grants given to a policy and needs declared by tools use the same syntax.
 * Only the first two colons split, so scopes may hold colons
 * (`net:read:localhost:8080`).
 */
import { ToolError } from '../errors/tool-error.ts';

/** A parsed capability: a grant or a need. */
export interface Capability {
  /** Lower case, e.g. `fs`, `net`, `memory`, or `*` (grants only). */
  readonly resource: string;
  /** Lower case verbs, e.g. `read`, `write`; `*` in a grant means every verb. Empty in a need means "any verb". */
  readonly verbs: readonly string[];
  /** Scopes, e.g. `/data/**` or `*.example.com`. Empty in a grant means every scope; empty in a need means "no particular scope". */
  readonly scopes: readonly string[];
}

const WORD = /^(\*|[a-z][a-z0-9_-]*)$/;

/**
 * Parses a capability string. Throws `POLICY_GRANT_INVALID` with an example
 * of the expected form, e.g. for `parseGrant('fs')`.
 */
export function parseCapability(text: string): Capability {
  const trimmed = text.trim();
  const invalid = (why: string): ToolError =>
    new ToolError('POLICY_GRANT_INVALID', `capability '${text}' ${why}; write resource:verbs[:scopes], e.g. fs:read:/data/** or net:read:*.example.com`, { capability: text });
  const first = trimmed.indexOf(':');
  if (first < 0) throw invalid('has no verbs');
  const second = trimmed.indexOf(':', first + 1);
  const resource = trimmed.slice(0, first).toLowerCase();
  const verbText = second < 0 ? trimmed.slice(first + 1) : trimmed.slice(first + 1, second);
  const scopeText = second < 0 ? '' : trimmed.slice(second + 1);
  if (!WORD.test(resource)) throw invalid(`has an invalid resource '${resource}'`);
  const verbs = verbText.split(',').map((verb) => verb.trim().toLowerCase());
  if (verbs.some((verb) => !WORD.test(verb))) throw invalid(`has invalid verbs '${verbText}'`);
  const scopes = second < 0 ? [] : scopeText.split(',').map((scope) => scope.trim());
  if (scopes.some((scope) => scope === '')) throw invalid('has an empty scope');
  // A bare IPv6 address is ambiguous with host:port (`::1:8080`), and URLs always bracket it.
  const bareIpv6 = resource === 'net' ? scopes.find((scope) => !scope.startsWith('[') && scope.indexOf(':') !== scope.lastIndexOf(':')) : undefined;
  if (bareIpv6 !== undefined) throw invalid(`has the bare IPv6 address '${bareIpv6}'; write it in brackets, e.g. net:read:[::1] or net:read:[::1]:8080`);
  return Object.freeze({ resource, verbs: Object.freeze(verbs), scopes: Object.freeze(scopes) });
}

/**
 * Why `text` cannot be a capability a tool declares it needs, or undefined.
 * A need names one resource and its verbs (a fixed scope is allowed, as the
 * MCP tools' `mcp:call:<server>`); `*` belongs to grants. Checked when a tool
 * is defined: a malformed need used to pass `defineTool` and fail the first
 * run of an agent allowed the tool, with no tool named.
 */
export function capabilityNeedProblem(text: unknown): string | undefined {
  if (typeof text !== 'string') return `capabilities must be a list of strings such as 'fs:read', got ${text === null ? 'null' : typeof text}`;
  let need: Capability;
  try {
    need = parseCapability(text);
  } catch (error) {
    return (error as Error).message;
  }
  if (need.resource === '*' || need.verbs.includes('*')) return `capability '${text}' needs '*', which only a grant may hold; name the resource and the verbs the tool needs, e.g. notes:write`;
  return undefined;
}

/**
 * Parses a need a tool computes (`scopes`, `context.authorize`): as {@link parseCapability}, but its scopes are kept
 * exactly as written, not trimmed. A need is built from a call's arguments (`notes:write:${args.note}`), and a trimmed
 * `' todo'` would be covered by the grant for `todo` while the tool acts on `' todo'`. Splitting at commas stays: each
 * part is then needed, which can only refuse more.
 */
export function parseNeed(text: string): Capability {
  const parsed = parseCapability(text);
  if (parsed.scopes.length === 0) return parsed;
  const first = text.indexOf(':');
  const scopes = text.slice(text.indexOf(':', first + 1) + 1).split(',');
  return Object.freeze({ ...parsed, scopes: Object.freeze(scopes) });
}

/** Parses a grant as given on the command line (`--grant fs:read:/tmp/**`). Same as {@link parseCapability}. */
export function parseGrant(text: string): Capability {
  return parseCapability(text);
}

/** The string form of a capability: `resource:verbs[:scopes]`. */
export function formatCapability(capability: Capability): string {
  const base = `${capability.resource}:${capability.verbs.join(',')}`;
  return capability.scopes.length === 0 ? base : `${base}:${capability.scopes.join(',')}`;
}
