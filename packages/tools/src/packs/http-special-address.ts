/**
 * Which IP addresses are special-use: not the public internet a wildcard `net`
 * grant stands for. The IANA special-purpose registries (IPv4 and IPv6),
 * plus every IPv6 address outside global unicast (2000::/3). An IPv6
 * address that embeds an IPv4 one and reaches it (IPv4-mapped `::ffff:0:0/96`,
 * NAT64 `64:ff9b::/96`) is what its IPv4 address is: `::ffff:127.0.0.1` is
 * loopback, `::ffff:8.8.8.8` is not special.
 */
import { parseIpAddress } from './http-ip-address.ts';

/** The special-use block an address lies in. */
export interface SpecialUse {
  /** The block, e.g. `127.0.0.0/8`. */
  readonly block: string;
  /** What it is, e.g. `loopback`, `private`, `link-local; cloud metadata is at 169.254.169.254`. */
  readonly kind: string;
  /** For an IPv6 address embedding the IPv4 address it reaches: that address and how (`IPv4-mapped`, `NAT64`). */
  readonly embedded?: { readonly address: string; readonly as: string };
}

interface Block {
  readonly prefix: Uint8Array;
  readonly bits: number;
  readonly block: string;
  readonly kind: string;
}

const block = (cidr: string, kind: string): Block => {
  const [address = '', bits = ''] = cidr.split('/');
  const prefix = parseIpAddress(address);
  if (prefix === undefined) throw new Error(`bad block ${cidr}`);
  return { prefix, bits: Number(bits), block: cidr, kind };
};

/** Exported for the property tests, which check them against `net.BlockList`. */
export const SPECIAL_IPV4_BLOCKS: readonly Block[] = [
  block('0.0.0.0/8', 'this network; 0.0.0.0 reaches this machine'),
  block('10.0.0.0/8', 'private'),
  block('100.64.0.0/10', 'shared, carrier-grade NAT'),
  block('127.0.0.0/8', 'loopback'),
  block('169.254.0.0/16', 'link-local; cloud metadata is at 169.254.169.254'),
  block('172.16.0.0/12', 'private'),
  block('192.0.0.0/24', 'IETF protocol assignments'),
  block('192.0.2.0/24', 'documentation'),
  block('192.88.99.0/24', '6to4 relay anycast'),
  block('192.168.0.0/16', 'private'),
  block('198.18.0.0/15', 'benchmarking'),
  block('198.51.100.0/24', 'documentation'),
  block('203.0.113.0/24', 'documentation'),
  block('224.0.0.0/4', 'multicast'),
  block('240.0.0.0/4', 'reserved; 255.255.255.255 is broadcast'),
];

/** IPv6 blocks that embed the IPv4 address they reach in their last 32 bits. */
export const EMBEDDING_IPV6_BLOCKS: readonly Block[] = [block('::ffff:0:0/96', 'IPv4-mapped'), block('64:ff9b::/96', 'NAT64')];

/** Checked after the embedding blocks, most specific first (`::1` before `::/96`). */
export const SPECIAL_IPV6_BLOCKS: readonly Block[] = [
  block('::/128', 'unspecified; reaches this machine'),
  block('::1/128', 'loopback'),
  block('::/96', 'IPv4-compatible, deprecated'),
  block('64:ff9b:1::/48', 'local-use NAT64'),
  block('100::/64', 'discard-only'),
  block('fc00::/7', 'unique local, private'),
  block('fe80::/10', 'link-local'),
  block('fec0::/10', 'site-local, deprecated'),
  block('ff00::/8', 'multicast'),
  block('2001:db8::/32', 'documentation'),
  block('2001::/23', 'IETF protocol assignments: Teredo, benchmarking, ORCHID'),
  block('2002::/16', '6to4'),
  block('3fff::/20', 'documentation'),
];

const GLOBAL_UNICAST = block('2000::/3', 'global unicast');

function inBlock(bytes: Uint8Array, { prefix, bits }: Block): boolean {
  if (bytes.length !== prefix.length) return false;
  const whole = Math.floor(bits / 8);
  for (let index = 0; index < whole; index += 1) if (bytes[index] !== prefix[index]) return false;
  const rest = bits % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((bytes[whole]! ^ prefix[whole]!) & mask) === 0;
}

const found = ({ block: cidr, kind }: Block): SpecialUse => ({ block: cidr, kind });

/** The special-use block of the address `bytes` (4 or 16, from {@link parseIpAddress}), or undefined for a public address. */
export function specialUseOf(bytes: Uint8Array): SpecialUse | undefined {
  if (bytes.length === 4) {
    const hit = SPECIAL_IPV4_BLOCKS.find((candidate) => inBlock(bytes, candidate));
    return hit === undefined ? undefined : found(hit);
  }
  const embedding = EMBEDDING_IPV6_BLOCKS.find((candidate) => inBlock(bytes, candidate));
  if (embedding !== undefined) {
    const ipv4 = bytes.subarray(12);
    const inner = specialUseOf(ipv4);
    return inner === undefined ? undefined : { ...inner, embedded: { address: ipv4.join('.'), as: embedding.kind } };
  }
  const hit = SPECIAL_IPV6_BLOCKS.find((candidate) => inBlock(bytes, candidate));
  if (hit !== undefined) return found(hit);
  return inBlock(bytes, GLOBAL_UNICAST) ? undefined : { block: 'outside 2000::/3', kind: 'reserved, not global unicast' };
}
