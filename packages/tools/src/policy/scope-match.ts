/**
 * Scope matching per resource (reference §2.4, `matcher.go scopeMatch`):
 * - `fs` and `memory`: path globs with `/` separator ({@link compileGlob}), case-sensitive;
 * - `net`: `host[:port]`; the host part is a case-insensitive glob where `*`
 *   stays inside one label (`*.example.com` matches `api.example.com` but not
 *   `example.com` or `a.b.example.com`; use `**.example.com` for any depth);
 *   a pattern without a port matches every port;
 * - `env`, `secrets`, `model`, `sandbox`, `proc`: `*` anywhere matches any run of characters;
 * - `mcp`: a server's name, ignoring case (as its tools' names do; two servers
 *   may not differ only in case), so `mcp:call:Every` grants server `Every`'s
 *   tools, which need `mcp:call:every`;
 * - anything else: `*`, exact equality, or the grant scope `true`.
 * For every resource, a grant scope of exactly `*` matches every scope.
 */
import { compileGlob } from './glob.ts';
import { compileWildcard, type WildcardPiece } from './wildcard-matcher.ts';

const SIMPLE_WILDCARD_RESOURCES: ReadonlySet<string> = new Set(['env', 'secrets', 'model', 'sandbox', 'proc']);
const PATH_RESOURCES: ReadonlySet<string> = new Set(['fs', 'memory']);

/** Splits `host[:port]` (with `[v6]:port` support) into its parts. */
export function splitHostPort(text: string): { host: string; port: string | undefined } {
  const lowered = text.toLowerCase();
  if (lowered.startsWith('[')) {
    const close = lowered.indexOf(']');
    const host = lowered.slice(0, close + 1);
    const rest = lowered.slice(close + 1);
    return { host, port: rest.startsWith(':') ? rest.slice(1) : undefined };
  }
  const colon = lowered.lastIndexOf(':');
  if (colon < 0 || lowered.indexOf(':') !== colon) return { host: lowered, port: undefined };
  return { host: lowered.slice(0, colon), port: lowered.slice(colon + 1) };
}

function matchHost(pattern: string, needed: string): boolean {
  const grant = splitHostPort(pattern);
  const need = splitHostPort(needed);
  if (grant.port !== undefined && grant.port !== '*' && grant.port !== need.port) return false;
  if (grant.host.startsWith('[') || need.host.startsWith('[')) return grant.host === need.host;
  return compileGlob(grant.host, { separator: '.', ignoreCase: true }).test(need.host);
}

function matchSimpleWildcard(pattern: string, needed: string): boolean {
  const pieces: WildcardPiece[] = pattern.split('').map((char): WildcardPiece => (char === '*' ? { kind: 'star', crossesSeparator: true } : { kind: 'char', char }));
  return compileWildcard(pieces, '\u0000').test(needed);
}

/**
 * True when `scope`, written in a grant of `resource`, would be read as a pattern that covers more than the scope
 * itself: a `*` where {@link scopeMatches} reads one (anywhere in a path, host or simple-wildcard scope; a whole `*`
 * elsewhere), or `true` where a grant scope `true` covers every scope (`mcp` and unlisted resources). No grant names
 * such a scope alone (there is no escape), so a denial must not suggest one: a program that asked for the file `/**`
 * would be told to get `fs:write:/**`.
 */
export function scopeIsPattern(resource: string, scope: string): boolean {
  if (scope === '*') return true;
  if (PATH_RESOURCES.has(resource) || resource === 'net' || SIMPLE_WILDCARD_RESOURCES.has(resource)) return scope.includes('*');
  return scope === 'true';
}

/** True when the grant scope `pattern` covers the needed scope for `resource`. */
export function scopeMatches(resource: string, pattern: string, needed: string): boolean {
  if (pattern === '*') return true;
  if (PATH_RESOURCES.has(resource)) return compileGlob(pattern, { separator: '/' }).test(needed);
  if (resource === 'net') return matchHost(pattern, needed);
  if (SIMPLE_WILDCARD_RESOURCES.has(resource)) return matchSimpleWildcard(pattern, needed);
  if (resource === 'mcp') return pattern.toLowerCase() === needed.toLowerCase() || pattern === 'true';
  return pattern === needed || pattern === 'true';
}
