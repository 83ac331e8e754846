/**
 * The message of a request that got no answer (`PROVIDER_NETWORK` before any
 * response): where it went, host and port, why, in words, and what to check.
 * The SDKs' own words ("Connection error.", "fetch failed") say neither; the
 * reason is the system error code at the bottom of the cause chain. Only the
 * origin's host and port are named: a path or query may carry a key.
 */

/** Why a connection was never made, for the codes that say so. */
const NO_CONNECTION: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused: nothing is listening on that port',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be looked up (DNS did not answer)',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
};

/** Why a connection that was made brought no answer. */
const NO_ANSWER: Readonly<Record<string, string>> = {
  ECONNRESET: 'the connection was reset before an answer came',
  EPIPE: 'the connection was closed while the request was sent',
  UND_ERR_SOCKET: 'the connection closed before an answer came',
};

/** The innermost system error code (`ECONNREFUSED`, `UND_ERR_SOCKET`, a TLS code) in `thrown`'s cause chain. */
export function systemErrorCode(thrown: unknown): string | undefined {
  let found: string | undefined;
  let current: unknown = thrown;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as Record<string, unknown>)['code'];
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) found = code;
    current = (current as Record<string, unknown>)['cause'];
  }
  return found;
}

/** `host:port` of an origin, the port its scheme's default when the URL names none. */
export function hostAndPort(origin: string): string {
  try {
    const url = new URL(origin);
    return `${url.hostname}:${url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port}`;
  } catch {
    return origin;
  }
}

/**
 * `could not connect to 127.0.0.1:11434 (connection refused: nothing is listening on that port); check that the
 * server is running there and that the provider's base URL points at it`. `told` is what the SDK said, kept when no
 * code explains it.
 */
export function unreachableMessage(origin: string, thrown: unknown, told: string): string {
  const where = hostAndPort(origin);
  const code = systemErrorCode(thrown);
  const dns = code === 'ENOTFOUND' || code === 'EAI_AGAIN';
  const check = dns
    ? "check the host name in the provider's base URL (and the DNS or proxy settings of this machine)"
    : "check that the server is running there and that the provider's base URL points at it";
  if (code !== undefined && NO_CONNECTION[code] !== undefined) return `could not connect to ${where} (${NO_CONNECTION[code]}); ${check}`;
  if (code !== undefined && NO_ANSWER[code] !== undefined) return `no answer from ${where} (${NO_ANSWER[code]}); ${check}`;
  if (code !== undefined && /CERT|TLS|SSL/.test(code)) return `could not connect to ${where} (its TLS certificate was refused: ${code}); check the provider's base URL (https for a server with a trusted certificate, http for a plain one)`;
  return `no answer from ${where} (${told}); ${check}`;
}
