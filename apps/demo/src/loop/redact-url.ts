/**
 * A store URL without its secrets, for messages and hints. libpq and `pg`
 * take a password in two places — `user:password@` and `?password=…` — and
 * either may be printed in an error, so both are hidden.
 */

/**
 * Query parameters whose value is a secret: `password`, `sslpassword` (the
 * client key's passphrase), and anything named like a key or token. A
 * `passfile` or `sslkey` is a path, not the secret itself, and stays visible.
 */
export const SECRET_QUERY_PARAMETER = /^(pass|passwd|pwd)$|password$|secret|token|api[-_]?key$/i;

/**
 * The URL with the userinfo password and secret query parameters replaced by
 * `***`. A URL that does not parse (a bad port, a stray bracket) is redacted
 * as text, so the rest of it still shows what is wrong.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactUnparsed(url);
  }
  // The parser cut the password short (at a / ? or # it holds): its rest sits in the path, shown as text.
  if (passwordCutShort(url)) return redactUnparsed(url);
  if (parsed.password !== '') parsed.password = '***';
  if (parsed.search !== '') {
    // Edit the query part by part rather than through searchParams, which would re-encode every other parameter.
    const parts = parsed.search.slice(1).split('&').map((part) => {
      const equals = part.indexOf('=');
      const name = equals === -1 ? part : part.slice(0, equals);
      return equals !== -1 && SECRET_QUERY_PARAMETER.test(decodeName(name)) ? `${name}=***` : part;
    });
    parsed.search = `?${parts.join('&')}`;
  }
  return parsed.toString();
}

/**
 * Whether a URL parser ends a password early at a `/`, `?` or `#` it holds:
 * `postgres://u:Xy@Secret/Tail@db:5432/x` parses as the password `Xy`, the
 * host `Secret` and a path holding the rest and the real host after an `@`;
 * `postgres://alice:2024/Secret@db/app` as the host `alice`, the port `2024`
 * and no password at all. Judged on the text, not on what a parser made of
 * it: an `@` after the end of the authority (the first `/`, `?` or `#` after
 * `://`) in the path, the fragment or the first query parameter's name. A
 * database name with `@` in it is taken for such a cut too: refusing one URL
 * too many is safe, printing most of a password (and sending a piece of it to
 * DNS as a host name) is not. An `@` in a query value (`?application_name=a@b`)
 * is not one.
 */
export function passwordCutShort(url: string): boolean {
  const start = url.indexOf('://');
  if (start < 0) return false;
  const afterScheme = url.slice(start + 3);
  const authorityEnd = afterScheme.search(/[/?#]/);
  if (authorityEnd < 0) return false;
  const rest = afterScheme.slice(authorityEnd);
  const hashAt = rest.indexOf('#');
  const hash = hashAt < 0 ? '' : rest.slice(hashAt);
  const beforeHash = hashAt < 0 ? rest : rest.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
  const firstParameter = queryAt < 0 ? '' : (beforeHash.slice(queryAt + 1).split('&', 1)[0] ?? '');
  const equals = firstParameter.indexOf('=');
  return path.includes('@') || hash.includes('@') || (firstParameter.includes('@') && (equals < 0 || firstParameter.indexOf('@') < equals));
}

/**
 * The secret values of a URL (the userinfo password and secret query
 * parameters, as written and decoded), so a message that quotes one
 * some other way can have it removed too.
 */
export function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const found = new Set<string>();
  if (parsed.password !== '') {
    found.add(parsed.password);
    found.add(decodeName(parsed.password));
  }
  for (const part of parsed.search.slice(1).split('&')) {
    const equals = part.indexOf('=');
    if (equals === -1 || !SECRET_QUERY_PARAMETER.test(decodeName(part.slice(0, equals)))) continue;
    const value = part.slice(equals + 1);
    found.add(value);
    found.add(decodeName(value.replaceAll('+', ' ')));
  }
  // A one- or two-character value would blank out unrelated text; such a password is not worth hiding that way.
  return [...found].filter((value) => value.length >= 3);
}

/** Percent-decodes, keeping the text as it is when it is not valid percent-encoding. */
export function decodeName(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `message` with the URL shown redacted and any of its secret values replaced by `***`. */
export function redactMessage(message: string, url: string): string {
  let out = message.replaceAll(url, redactUrl(url));
  // Longest first, so a value that contains another is replaced whole.
  for (const secret of urlSecrets(url).sort((a, b) => b.length - a.length)) out = out.replaceAll(secret, '***');
  return out;
}

/**
 * `redactUrl` for text that is no URL: after `scheme://`, everything from the
 * first `:` to the last `@` is the password (a password may hold `@` or `/`:
 * hiding too much is safe, too little is not), and each secret query
 * parameter's value is hidden.
 */
function redactUnparsed(url: string): string {
  const start = url.indexOf('://') + 3;
  if (start < 3) return '***';
  let rest = url.slice(start);
  const at = rest.lastIndexOf('@');
  const colon = rest.indexOf(':');
  if (at !== -1 && colon !== -1 && colon < at) rest = `${rest.slice(0, colon + 1)}***${rest.slice(at)}`;
  rest = rest.replace(/([?&])([^=&#]*)=([^&#]*)/g, (part, separator: string, name: string) => (SECRET_QUERY_PARAMETER.test(decodeName(name)) ? `${separator}${name}=***` : part));
  return `${url.slice(0, start)}${rest}`;
}
