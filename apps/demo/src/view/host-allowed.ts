/**
 * The viewer answers only requests addressed to itself: a page on another
 * site can point a name it controls at 127.0.0.1 (DNS rebinding) and would
 * then read the sessions as same-origin. The Host header still carries that
 * other name, so anything but the loopback address or `localhost` with the
 * viewer's own port is refused.
 */

/**
 * True when `host` (the request's Host header) names this viewer:
 * `127.0.0.1:PORT` or `localhost:PORT`, case-insensitive. A missing header,
 * another name, another port or extra characters are refused.
 */
export function isAllowedHost(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const lower = host.toLowerCase();
  return lower === `127.0.0.1:${port}` || lower === `localhost:${port}`;
}
