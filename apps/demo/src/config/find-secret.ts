/**
 * Keys come from the environment, never from the config file: a file is
 * copied, committed and shown in reviews. This scan refuses, before any
 * validation, a key-like field (`apiKey:`, `token:`, `OPENAI_API_KEY:`) with a
 * literal value, any value that looks like a well-known key format or a
 * bearer credential, and a URL with a password (in `user:password@` or a
 * `?password=` query), wherever it is. Inside an MCP server's `env` and `headers` a key-like field
 * may hold a `${NAME}` reference, filled from the environment when the
 * server starts.
 */
import { isMergeKey } from '@askloop/controller';
import { isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import { decodeName, passwordCutShort, SECRET_QUERY_PARAMETER } from '../loop/redact-url.ts';

/** Where a secret was found and what to do instead. */
export interface SecretFinding {
  readonly path: readonly (string | number)[];
  readonly message: string;
  /**
   * What was found, for a caller that words its own fix: a key-like field with a literal value (`reference` when
   * that value is a `${NAME}` reference, which is not read there), a value shaped like a key, a URL with a password.
   */
  readonly kind: { readonly field: string; readonly reference: boolean } | 'value' | 'url-password';
}

const SECRET_KEY = /^(api[-_]?key|apikey|secret|secret[-_]?key|client[-_]?secret|password|passwd|token|access[-_]?token|auth[-_]?token|refresh[-_]?token|bearer|private[-_]?key|authorization|x-api-key|x-goog-api-key)$|[-_](key|token|secret|password)$/i;
// Formats of real keys (OpenAI, Anthropic, Google, GitHub, Slack, an AWS access key id, a JSON Web Token: three
// base64url parts, the first two JSON objects, so `eyJ`), and a literal bearer credential: a whole value
// `Bearer TOKEN` (a header), or `Bearer`/`bearer` before a credential-shaped token (12+ token characters with a digit)
// anywhere in a text — prose such as "Bearer tokens expire" or "bearer of the 2nd key" has no such word after it.
const SECRET_VALUE = /\b(sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{30,}|gh[pousr]_[A-Za-z0-9]{30,}|xox[abpr]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})|^\s*Bearer\s+(?!\$\{)\S+\s*$|\b[Bb]earer\s+(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{12,}/;
// A URL, to look for a password in its userinfo (`postgres://u:pw@host`) or its query (`?password=pw`).
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;
/** `${NAME}` (or `Bearer ${NAME}`): a value read from the environment when it is used. */
export const ENV_REFERENCE = /^(?:(?:Bearer|Basic|Token)\s+)?\$\{[A-Za-z_][A-Za-z0-9_]*\}$/i;
/** Every `${NAME}` in a text, NAME captured (global: use with `matchAll` or `replace`). */
export const ENV_REFERENCES = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The environment variable to suggest for a key-like field: its own name
 * when it is one; where references are read (an MCP server's `env` and
 * `headers`), a variable of the user's own; else the providers' variables.
 */
function suggestion(key: string, referenced: boolean): string {
  if (/^[A-Z0-9_]+$/.test(key)) return key;
  return referenced ? 'a variable of your own (TRACKER_TOKEN, say)' : 'the provider\'s variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, …)';
}

/** What to write in place of a literal secret where references are read: `Bearer ${NAME}` for a credential with its scheme. */
function referenceToWrite(key: string, text: string): string {
  const name = /^[A-Z0-9_]+$/.test(key) ? key : 'NAME';
  const scheme = /^\s*(Bearer|Basic|Token)\s/i.exec(text)?.[1];
  return scheme === undefined ? `\${${name}}` : `${scheme} \${${name}}`;
}

/** The first secret in the document, or undefined. `allowReference(path)` says where `${NAME}` references are accepted. */
export function findSecret(node: Node | null, allowReference: (path: readonly (string | number)[]) => boolean, path: (string | number)[] = []): SecretFinding | undefined {
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const value = pair.value as Node | null;
      if (isMergeKey(pair.key)) {
        // A merged map's keys land in this map (`<<: { token: … }` is this map's `token`), and so are named.
        for (const merged of isSeq(value) ? (value.items as Array<Node | null>) : [value]) {
          const found = findSecret(merged, allowReference, path);
          if (found !== undefined) return found;
        }
        continue;
      }
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      const here = [...path, key];
      if (SECRET_KEY.test(key) && isScalar(value) && value.value !== null && value.value !== '') {
        const text = String(value.value);
        if (!(ENV_REFERENCE.test(text) && allowReference(here))) {
          return {
            path: here,
            kind: { field: key, reference: ENV_REFERENCE.test(text) },
            message: `'${key}' looks like a key; keys are never written to the config file. Set ${suggestion(key, allowReference(here))} in the environment instead${allowReference(here) ? `, and write '${referenceToWrite(key, text)}' here to pass it on` : ' and remove this line'}`,
          };
        }
      }
      const found = findSecret(value, allowReference, here);
      if (found !== undefined) return found;
    }
  } else if (isSeq(node)) {
    for (const [index, item] of node.items.entries()) {
      const found = findSecret(item as Node | null, allowReference, [...path, index]);
      if (found !== undefined) return found;
    }
  } else if (isScalar(node) && typeof node.value === 'string') {
    if (SECRET_VALUE.test(node.value)) {
      return { path, kind: 'value', message: 'this value looks like an API key, a token or a bearer credential; keys are never written to the config file. Put it in an environment variable and refer to it as ${NAME} (MCP env and headers), or let the provider read its own variable' };
    }
    const where = urlPassword(node.value);
    if (where !== undefined) {
      return {
        path,
        kind: 'url-password',
        message: `this URL has a password in its ${where}; passwords are never written to the config file. Remove it from the URL and set it in the environment instead (for a postgres:// store, PGPASSWORD, or a ~/.pgpass file)`,
      };
    }
  }
  return undefined;
}

/**
 * Where a URL in `text` carries a literal password — `userinfo`
 * (`postgres://u:pw@host`) or `query` (`?password=pw`, `?sslpassword=…`) —
 * or undefined. An empty value or a `${NAME}` reference is not a secret.
 */
export function urlPassword(text: string): 'userinfo' | 'query' | undefined {
  for (const [candidate] of text.matchAll(URL_IN_TEXT)) {
    let url: URL;
    try {
      url = new URL(candidate);
    } catch {
      // Text no URL parser takes (`postgres://u:pw@host:99999/db`, a port out of range) still holds its password.
      const found = unparsedPassword(candidate);
      if (found !== undefined) return found;
      continue;
    }
    if (isLiteralSecret(decodeName(url.password))) return 'userinfo';
    // A store URL whose password holds a `/`, `?` or `#` parses with the password cut short or missing
    // (`postgres://alice:2024/Secret@db/app`); the store's redaction reads it so, and so does this check.
    if (/^postgres(ql)?:$/i.test(url.protocol) && passwordCutShort(candidate) && unparsedPassword(candidate, true) !== undefined) return 'userinfo';
    for (const [name, value] of url.searchParams) if (SECRET_QUERY_PARAMETER.test(name) && isLiteralSecret(value)) return 'query';
  }
  return undefined;
}

/**
 * A password in text taken as a URL without a parser: the userinfo is what
 * comes before the authority's last `@` (with `wholeRest`, the last `@`
 * before any `?` or `#`, for a password holding a `/`), the password what
 * follows its first `:`; and each secret query parameter's value.
 */
function unparsedPassword(text: string, wholeRest = false): 'userinfo' | 'query' | undefined {
  const rest = text.slice(text.indexOf('://') + 3);
  const authority = rest.slice(0, rest.search(wholeRest ? /[?#]|$/ : /[/?#]|$/));
  const at = authority.lastIndexOf('@');
  const userinfo = at < 0 ? '' : authority.slice(0, at);
  const colon = userinfo.indexOf(':');
  if (colon >= 0 && isLiteralSecret(userinfo.slice(colon + 1))) return 'userinfo';
  const queryAt = rest.indexOf('?');
  if (queryAt < 0) return undefined;
  for (const [name, value] of new URLSearchParams(rest.slice(queryAt + 1).split('#', 1)[0])) if (SECRET_QUERY_PARAMETER.test(name) && isLiteralSecret(value)) return 'query';
  return undefined;
}

function isLiteralSecret(value: string): boolean {
  return value !== '' && !/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(value);
}

/**
 * Replaces every `${NAME}` in the values with the environment's, for an
 * MCP server's `env` and `headers` when it starts. A missing variable is
 * reported by name, never with a value.
 */
export function expandEnvReferences(values: Readonly<Record<string, string>>, env: Readonly<Record<string, string | undefined>>): { values: Record<string, string>; missing: string[] } {
  const out: Record<string, string> = {};
  const missing: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    out[key] = value.replace(ENV_REFERENCES, (reference, name: string) => {
      const found = env[name];
      if (found === undefined || found === '') missing.push(name);
      return found ?? '';
    });
  }
  return { values: out, missing };
}
