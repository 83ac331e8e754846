/**
 * The system's own variables, which a `${NAME}` in an MCP server's `env` or
 * `headers` may pass on without naming a secret: a user who writes `HOME:
 * ${HOME}` or `LANG: ${LANG}` hands the server the environment it needs, and
 * counting the value as a secret would hide it everywhere — in every reply,
 * so in every program that runs (`TERM=xterm-256color`, `LANG=en_US.UTF-8`,
 * `TZ=Europe/Berlin`, a user name of 8 letters or more). None of them is a
 * key: the MCP SDK passes the Unix and Windows ones below to every server it
 * starts unasked (its `DEFAULT_INHERITED_ENV_VARS`), and a proxy URL's
 * password is hidden anyway (the redactor hides the password of any
 * variable's URL). A variable named like a key stays a secret whatever the
 * file says (`createSecretRedactor`'s name rule), so the list cannot let one
 * through.
 */

/** The names, upper case (Windows spells them in any case). */
const ORDINARY = new Set([
  // Unix, as the MCP SDK passes them, and the rest of a login's environment.
  'HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'PWD', 'TMPDIR', 'LANG', 'LANGUAGE', 'TZ', 'HOSTNAME', 'COLORTERM',
  // Windows, as the MCP SDK passes them.
  'APPDATA', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PROCESSOR_ARCHITECTURE', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'TMP', 'USERNAME', 'USERPROFILE', 'PROGRAMFILES',
  // A proxy a server's network goes through (docs/using-mcp-servers.md asks for them to be passed on).
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY',
]);

/** Whether `name` is one of the system's ordinary variables (above), or a locale setting (`LC_ALL`, `LC_CTYPE`, …). */
export function isOrdinaryVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return ORDINARY.has(upper) || /^LC_[A-Z]+$/.test(upper);
}
