/**
 * The system's own variables, which a `${NAME}` in an MCP server's `env` or
 * `headers` may pass on without naming a secret: a user who writes `HOME:
 * ${HOME}` or `LANG: ${LANG}` hands the server the environment it needs, and
 * counting the value as a secret would hide it everywhere — in every reply,
 * so in every program that runs (`TERM=xterm-256color`, `LANG=en_US.UTF-8`,
 * `TZ=Europe/Berlin`, a user name of 8 letters or more). None of them is a
 * key: the MCP SDK passes the Unix and Windows ones below to every server it
 * starts unasked (its `DEFAULT_INHERITED_ENV_VARS`). A proxy setting is
 * ordinary only without credentials: `http://alice:pw@proxy:3128` — or the
 * same without a scheme, which curl and most tools take, or a service's key
 * as the user name (`http://KEY:@proxy.example:8011`) — is a secret whole, as
 * before the exemption; the redactor's hiding of a URL's password alone
 * misses a password without a scheme, a key in the user name, and (in the
 * sessions file) a password under 8 characters. A variable named like a key
 * stays a secret whatever the file says (`createSecretRedactor`'s name rule),
 * so the list cannot let one through. `PWD` is left out on purpose: a path is
 * never hidden anyway (the redactor leaves path-like values alone), and some
 * setups (a container's or CI's environment, where no shell sets it) use
 * `PWD` for a password.
 */

/** The names, upper case (Windows spells them in any case). */
const ORDINARY = new Set([
  // Unix, as the MCP SDK passes them, and the rest of a login's environment.
  'HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'TMPDIR', 'LANG', 'LANGUAGE', 'TZ', 'HOSTNAME', 'COLORTERM',
  // Windows, as the MCP SDK passes them.
  'APPDATA', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PROCESSOR_ARCHITECTURE', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'TMP', 'USERNAME', 'USERPROFILE', 'PROGRAMFILES',
]);

/** A proxy a server's network goes through (docs/using-mcp-servers.md asks for them to be passed on): ordinary without credentials. */
const PROXIES = new Set(['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY']);

/**
 * Whether `name` is one of the system's ordinary variables (above), a locale setting (`LC_ALL`, `LC_CTYPE`, …), or a
 * proxy setting whose `value` (the environment's) carries no credentials: no `@`, which only a user name (with or
 * without a password) puts in a proxy URL; anywhere in the value, so a password holding a `/` cannot hide it.
 */
export function isOrdinaryVariable(name: string, value: string | undefined): boolean {
  const upper = name.toUpperCase();
  if (PROXIES.has(upper)) return value === undefined || !value.includes('@');
  return ORDINARY.has(upper) || /^LC_[A-Z]+$/.test(upper);
}
