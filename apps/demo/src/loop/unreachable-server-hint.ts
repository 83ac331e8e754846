/**
 * What to do when no PostgreSQL server could be reached at a `--db` or
 * `store:` URL. The driver says only the socket's error (`connect
 * ECONNREFUSED 127.0.0.1:1`, `getaddrinfo ENOTFOUND db`), which names no fix;
 * it is found by its `code` anywhere in the error's cause chain, as the
 * store wraps the driver's error. A unix socket (`?host=/var/run/postgresql`,
 * or `PGHOST`) is named by the path the driver tried, which the URL's host
 * (empty there) does not give.
 */

/** The socket errors this explains, each with its fix (`{host}` and `{port}` from the URL). */
const HINTS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'no server listens at {host}:{port}: start PostgreSQL there, or fix the host and port in the URL (PostgreSQL listens on 5432 unless told otherwise)',
  ENOTFOUND: 'the host name {host} does not resolve: fix the host in the URL',
  EAI_AGAIN: 'the host name {host} could not be looked up (DNS did not answer): check the network, or the host in the URL',
  ETIMEDOUT: '{host}:{port} did not answer in time: check that the server runs there and that no firewall drops the connection',
  EHOSTUNREACH: '{host} cannot be reached from this machine: check the host in the URL and the network',
  ENETUNREACH: '{host} is on a network this machine cannot reach: check the host in the URL and the network',
};

/** A refused connection to a unix socket, by its path: no host or port of the URL applies. */
const SOCKET_REFUSED = 'no server listens on the socket {socket}: start PostgreSQL there, or fix the socket folder (host=) and port in the URL';

/** The socket error of `error` or of one of its causes (an `AggregateError`'s too), if its code is explained here. */
function socketError(error: unknown): { readonly code: string; readonly address?: unknown } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && Object.hasOwn(HINTS, code)) return current as { code: string; address?: unknown };
    const inner = (current as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.length > 0) return socketError(inner[0]);
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The clause to add (`; …`) for a server that could not be reached at `url`, or ''. */
export function unreachableServerHint(error: unknown, url: string): string {
  const found = socketError(error);
  if (found === undefined) return '';
  const { code, address } = found;
  if (code === 'ECONNREFUSED' && typeof address === 'string' && address.startsWith('/')) return `; ${SOCKET_REFUSED.replace('{socket}', address)}`;
  let host = 'the host';
  let port = '5432';
  try {
    const parsed = new URL(url);
    host = parsed.hostname === '' ? 'localhost' : parsed.hostname;
    port = parsed.port === '' ? '5432' : parsed.port;
  } catch {
    // A URL that does not parse fails earlier, as PG_URL_INVALID.
  }
  return `; ${HINTS[code]!.replaceAll('{host}', host).replaceAll('{port}', port)}`;
}
