/**
 * Keeps an MCP server's credentials out of the errors this package builds
 * from what the server or its transport said. A server may echo the key it
 * was given (an HTTP 401 body "Incorrect API key provided: …", a stack trace
 * on stderr, a JSON-RPC error), and those texts end up in CLI output, logs
 * and transcripts.
 *
 * The same idea as `createRedactor` of `@askloop/providers`, but not an
 * import of it: this package may import only `@askloop/tools` and
 * `@askloop/interpreter` (ARCHITECTURE.md, enforced by
 * scripts/check-dependency-direction.ts). The patterns are the providers'
 * plus the well-known key formats the config file's secret scan refuses.
 */
import { isHttpServerConfig, type McpServerConfig } from '../config/server-config.ts';

/** What replaces a secret. */
export const REDACTED = '[REDACTED]';

/**
 * Configured values shorter than this are not replaced literally: `env`
 * holds ordinary settings too (`DEBUG: "0"`, `LEVEL: info`), and replacing
 * every "0" or "info" would make messages unreadable. Real credentials are
 * longer; a short one is still caught after `Bearer` or `api_key=`.
 */
export const MIN_SECRET_LENGTH = 8;

/** A lone surrogate (half of a UTF-16 pair without its other half). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const PATTERNS: readonly [RegExp, string][] = [
  // Authorization: Bearer <token>
  [/\b(Bearer\s+)[^\s"',;]+/gi, `$1${REDACTED}`],
  // x-api-key: <key>, "api_key":"<key>", authorization=<raw key>
  [/\b(x-api-key|x-goog-api-key|api[-_]?key|authorization)(["']?\s*[:=]\s*["']?)(?!Bearer\s)([^\s"',;&]+)/gi, `$1$2${REDACTED}`],
  // ?key=<key> in URLs
  [/([?&](?:key|api_key|apikey|access_token)=)[^&#\s"']+/gi, `$1${REDACTED}`],
  // Key formats of OpenAI, Anthropic, Google, GitHub and Slack, wherever they stand.
  [/\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{30,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|xox[abpr]-[A-Za-z0-9-]{10,})/g, REDACTED],
];

/** Scrubs one text. */
export type Redact = (text: string) => string;

/**
 * The secrets of one server: every `env` value (a stdio server's keys are
 * passed that way; the config cannot say which entries are keys) and every
 * `headers` value, as expanded, plus the credential after an auth scheme
 * (`Bearer tok` → also `tok`, which a server echoes on its own).
 */
export function serverSecrets(config: McpServerConfig): string[] {
  const values = Object.values((isHttpServerConfig(config) ? config.headers : config.env) ?? {});
  const secrets: string[] = [];
  for (const value of values) {
    secrets.push(value);
    const credential = /^\s*(?:Bearer|Basic|Token|Bot)\s+(\S+)\s*$/i.exec(value)?.[1];
    if (credential !== undefined) secrets.push(credential);
  }
  // A password written into the server's URL (http://user:password@host/mcp) is a credential too: the transport's own
  // error quotes the URL whole.
  if (isHttpServerConfig(config)) {
    const password = urlPassword(config.url);
    if (password !== undefined) secrets.push(password);
  }
  return secrets;
}

/** The password of `url`, decoded and as written, or undefined without one (or for text that is no URL). */
function urlPassword(url: string): string | undefined {
  try {
    const { password } = new URL(url);
    return password === '' ? undefined : password;
  } catch {
    return undefined;
  }
}

/**
 * A function that replaces `secrets` (and their URL- and JSON-escaped forms)
 * by {@link REDACTED}, and with `patterns` (the default) credential-looking
 * text too. Without them it touches only the configured values: for a
 * successful result, whose text ("Bearer tokens expire…") is the program's data.
 */
export function createRedact(secrets: readonly string[], options: { readonly patterns?: boolean } = {}): Redact {
  const literals = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    literals.add(secret);
    // A lone surrogate as U+FFFD, as UTF-8 sends it (a server echoes that) and where encodeURIComponent throws.
    const wellFormed = secret.replace(LONE_SURROGATE, '\uFFFD');
    literals.add(wellFormed);
    literals.add(encodeURIComponent(wellFormed));
    literals.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first, so a secret containing another is replaced whole.
  const ordered = [...literals].sort((a, b) => b.length - a.length);
  const patterns = options.patterns === false ? [] : PATTERNS;
  return (text) => {
    let result = text;
    for (const literal of ordered) if (result.includes(literal)) result = result.split(literal).join(REDACTED);
    for (const [pattern, replacement] of patterns) result = result.replace(pattern, replacement);
    return result;
  };
}

/** `value` with `redact` applied to every string in it, map keys included (a new value; JSON data only). */
export function redactValue<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactValue(item, redact)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    // defineProperty: a key such as "__proto__" stays a plain key.
    for (const [key, item] of Object.entries(value)) Object.defineProperty(out, redact(key), { value: redactValue(item, redact), enumerable: true, writable: true, configurable: true });
    return out as T;
  }
  return value;
}

/**
 * Scrubs, in place, the error a server or transport raised before it becomes
 * the `cause` of an `AskLoopMcpError`: its message, stack (which repeats the
 * message), string `data`, and the same down its cause chain. In place
 * rather than copied so callers can still test its class and `code`.
 */
export function redactError(error: unknown, redact: Redact): void {
  const seen = new Set<unknown>();
  for (let item = error; item instanceof Error && !seen.has(item); item = item.cause) {
    seen.add(item);
    const fields = item as Error & { data?: unknown };
    try {
      fields.message = redact(fields.message);
      if (typeof fields.stack === 'string') fields.stack = redact(fields.stack);
      if (typeof fields.data === 'string') fields.data = redact(fields.data);
      else if (fields.data !== undefined && fields.data !== null) fields.data = JSON.parse(redact(JSON.stringify(fields.data))) as unknown;
    } catch {
      // A frozen error or data that is not JSON: drop what could not be scrubbed.
      try {
        fields.data = undefined;
      } catch {
        // Nothing more to do.
      }
    }
  }
}
