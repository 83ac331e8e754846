/**
 * The check of the address every http connection goes to. A `net` grant
 * pattern (`*.example.com`, `**`, `*`) stands for the public internet: an
 * address in a special-use block (loopback, private, link-local with the cloud
 * metadata service, …; `http-special-address.ts`) is reached only when a
 * grant names the request's host without a wildcard
 * (`net:read:localhost:8080`, `net:read:127.0.0.1`) or the pack is told
 * `specialAddresses: 'granted'`.
 *
 * The check runs inside the connection's own name lookup
 * ({@link guardedLookup}, the socket's `lookup` hook), on the very addresses
 * the socket then connects to, so a name cannot resolve to a public address
 * when checked and to a private one when connected (DNS rebinding). An IP
 * literal, which a socket connects to without a lookup, is checked before the
 * request is made. Either way nothing is sent to a refused address.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { ToolError } from '../errors/tool-error.ts';
import type { Capability } from '../policy/capability.ts';
import { formatCapability } from '../policy/capability.ts';
import { grantHint, grantToAdd } from '../policy/grant-hint.ts';
import { grantsNameHost } from '../policy/net-named-grant.ts';
import { parseIpAddress } from './http-ip-address.ts';
import { specialUseOf, type SpecialUse } from './http-special-address.ts';

/** Resolves a host name to the addresses a connection may go to (`dns.lookup` with `all: true` has this shape). */
export type HostResolver = (hostname: string) => Promise<readonly { readonly address: string }[]>;

/** The system's resolver (`dns.lookup`: the hosts file, then DNS), as every Node socket uses it. */
export const systemResolver: HostResolver = (hostname) => dnsLookup(hostname, { all: true });

/**
 * Who reaches special-use addresses: `'named'`, only a grant naming the host;
 * `'granted'`, any grant covering the host, patterns included.
 */
export type SpecialAddressRule = 'named' | 'granted';

/** How the connections of one request (one hop) resolve and check addresses. */
export interface AddressGuard {
  readonly resolve: HostResolver;
  /** Throws the refusal (`HTTP_ADDRESS_DENIED`) when the connection may not go to `address`. */
  check(address: string): void;
}

/** The request's host without the brackets of an IPv6 literal (`[::1]` → `::1`), as a socket takes it. */
export function bareHostname(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** `a special-use address (127.0.0.0/8, loopback)`. */
function describe(special: SpecialUse): string {
  const embedded = special.embedded === undefined ? '' : `; ${special.embedded.address} as ${special.embedded.as} IPv6`;
  return `a special-use address (${special.block}, ${special.kind}${embedded})`;
}

/** The guard of one request to `url` needing `need` (`httpNeed`), under `grants` and `rule`. */
export function addressGuard(url: URL, need: Capability, grants: readonly Capability[], rule: SpecialAddressRule, resolve: HostResolver): AddressGuard {
  const hostname = bareHostname(url);
  // Decided once per hop: the grants do not change while it connects.
  const open = rule === 'granted' || grantsNameHost(grants, need);
  return {
    resolve,
    check(address) {
      const bytes = parseIpAddress(address);
      if (bytes === undefined) throw new ToolError('HTTP_FAILED', `${hostname} resolved to '${address}', which is not an IP address; nothing was sent`);
      if (open) return;
      const special = specialUseOf(bytes);
      if (special === undefined) return;
      const where = address === hostname ? `${url.hostname} is ${describe(special)}` : `${hostname} resolves to ${address}, ${describe(special)}`;
      throw new ToolError(
        'HTTP_ADDRESS_DENIED',
        `${where}, which only a grant naming the host reaches: a net grant pattern (*, **, *.example.com) stands for the public internet, never loopback, private, link-local or other special-use addresses, so nothing was sent; if the program should reach this host, the operator must name it in a grant: ${grantHint(need)}`,
        { capability: formatCapability(need), grant: grantToAdd(need) },
      );
    },
  };
}

/**
 * A socket `lookup` (the `lookup` option of `http.request`) that resolves
 * with the guard's resolver and hands the socket only addresses the guard
 * passed: every address of the name is checked, and one refused fails the
 * connection before it is made (a name answering with a public and a private
 * address is refused, whichever the socket would have tried first).
 */
export function guardedLookup(guard: AddressGuard): LookupFunction {
  return (hostname, options, callback) => {
    const checked = guard.resolve(hostname).then((found) => {
      if (found.length === 0) throw new ToolError('HTTP_FAILED', `${hostname} resolved to no address; nothing was sent`);
      return found.map(({ address }) => {
        guard.check(address);
        return { address, family: address.includes(':') ? 6 : 4 };
      });
    });
    checked.then(
      (addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const wanted = family === undefined ? addresses : addresses.filter((entry) => entry.family === family);
        if (options.all === true) return callback(null, wanted);
        const first = wanted[0];
        if (first === undefined) return callback(new ToolError('HTTP_FAILED', `${hostname} has no IPv${family} address; nothing was sent`), '', 0);
        return callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}
