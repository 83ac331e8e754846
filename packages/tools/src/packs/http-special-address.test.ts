import fc from 'fast-check';
import { BlockList } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseIpAddress } from './http-ip-address.ts';
import { EMBEDDING_IPV6_BLOCKS, SPECIAL_IPV4_BLOCKS, SPECIAL_IPV6_BLOCKS, specialUseOf } from './http-special-address.ts';

const special = (text: string) => specialUseOf(parseIpAddress(text)!);

const ipv4Text = (bytes: readonly number[]): string => bytes.join('.');
const ipv6Text = (bytes: readonly number[]): string => Array.from({ length: 8 }, (_, index) => ((bytes[index * 2]! << 8) | bytes[index * 2 + 1]!).toString(16)).join(':');

/** Node's own prefix matcher over the same blocks: the oracle for the bit arithmetic. */
function blockListOf(blocks: readonly { block: string }[], family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const { block } of blocks) {
    const [address = '', bits = ''] = block.split('/');
    list.addSubnet(address, Number(bits), family);
  }
  return list;
}
const ipv4List = blockListOf(SPECIAL_IPV4_BLOCKS, 'ipv4');
const ipv6List = blockListOf(SPECIAL_IPV6_BLOCKS, 'ipv6');
/** Everything outside global unicast 2000::/3. */
const outsideGlobal = blockListOf([{ block: '::/3' }, { block: '4000::/2' }, { block: '8000::/1' }], 'ipv6');
const embeddingList = blockListOf(EMBEDDING_IPV6_BLOCKS, 'ipv6');

/** The first bytes of every block and its neighbours, so generated addresses land in, at the edge of and just outside each. */
const interestingPrefixes = [...SPECIAL_IPV4_BLOCKS, ...SPECIAL_IPV6_BLOCKS, ...EMBEDDING_IPV6_BLOCKS].flatMap(({ block }) => {
  const bytes = Array.from(parseIpAddress(block.split('/')[0]!)!);
  const bits = Number(block.split('/')[1]);
  const last = Math.max(0, Math.ceil(bits / 8) - 1);
  return [bytes, bytes.map((byte, index) => (index === last ? (byte + 1) & 0xff : byte)), bytes.map((byte, index) => (index === last ? (byte - 1) & 0xff : byte))].map((prefix) => ({ prefix, keep: last + 1, length: bytes.length }));
});

/** An address of `length` bytes that starts like one of the blocks (or is random), the rest random. */
const addressBytes = (length: 4 | 16) =>
  fc.tuple(fc.constantFrom(...interestingPrefixes.filter((entry) => entry.length === length)), fc.uint8Array({ minLength: length, maxLength: length }), fc.boolean()).map(([{ prefix, keep }, random, blank]) => {
    const bytes = Array.from(random);
    if (!blank) for (let index = 0; index < keep; index += 1) bytes[index] = prefix[index]!;
    return bytes;
  });

describe('specialUseOf', () => {
  it('finds an IPv4 address special exactly when net.BlockList puts it in one of the blocks', () => {
    fc.assert(
      fc.property(fc.oneof(addressBytes(4), fc.ipV4().map((text) => text.split('.').map(Number))), (bytes) => {
        expect(specialUseOf(Uint8Array.from(bytes)) !== undefined).toBe(ipv4List.check(ipv4Text(bytes), 'ipv4'));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds an IPv6 address special exactly when it is in a block or outside 2000::/3 (an embedded IPv4 address judged as IPv4)', () => {
    fc.assert(
      fc.property(addressBytes(16), (bytes) => {
        const text = ipv6Text(bytes);
        const expected = embeddingList.check(text, 'ipv6') ? ipv4List.check(ipv4Text(bytes.slice(12)), 'ipv4') : ipv6List.check(text, 'ipv6') || outsideGlobal.check(text, 'ipv6');
        expect(specialUseOf(Uint8Array.from(bytes)) !== undefined).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('judges an IPv4 address mapped into IPv6 or translated by NAT64 as the IPv4 address itself', () => {
    fc.assert(
      fc.property(fc.oneof(addressBytes(4), fc.ipV4().map((text) => text.split('.').map(Number))), (bytes) => {
        const ipv4 = specialUseOf(Uint8Array.from(bytes));
        for (const prefix of ['::ffff:', '64:ff9b::']) {
          const embedded = special(`${prefix}${ipv4Text(bytes)}`);
          expect(embedded === undefined ? undefined : { block: embedded.block, kind: embedded.kind }).toEqual(ipv4);
          if (embedded !== undefined) expect(embedded.embedded?.address).toBe(ipv4Text(bytes));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['127.0.0.1', 'loopback', '127.0.0.0/8'],
    ['127.255.255.254', 'loopback', '127.0.0.0/8'],
    ['0.0.0.0', 'this network; 0.0.0.0 reaches this machine', '0.0.0.0/8'],
    ['10.1.2.3', 'private', '10.0.0.0/8'],
    ['172.16.0.1', 'private', '172.16.0.0/12'],
    ['172.31.255.255', 'private', '172.16.0.0/12'],
    ['192.168.1.1', 'private', '192.168.0.0/16'],
    ['169.254.169.254', 'link-local; cloud metadata is at 169.254.169.254', '169.254.0.0/16'],
    ['100.100.100.200', 'shared, carrier-grade NAT', '100.64.0.0/10'],
    ['255.255.255.255', 'reserved; 255.255.255.255 is broadcast', '240.0.0.0/4'],
    ['224.0.0.1', 'multicast', '224.0.0.0/4'],
    ['::', 'unspecified; reaches this machine', '::/128'],
    ['::1', 'loopback', '::1/128'],
    ['::127.0.0.1', 'IPv4-compatible, deprecated', '::/96'],
    ['fc00::1', 'unique local, private', 'fc00::/7'],
    ['fd00:ec2::254', 'unique local, private', 'fc00::/7'],
    ['fe80::1%eth0', 'link-local', 'fe80::/10'],
    ['ff02::1', 'multicast', 'ff00::/8'],
    ['2001:db8::1', 'documentation', '2001:db8::/32'],
    ['2001::1', 'IETF protocol assignments: Teredo, benchmarking, ORCHID', '2001::/23'],
    ['2002:7f00:1::', '6to4', '2002::/16'],
    ['4000::1', 'reserved, not global unicast', 'outside 2000::/3'],
  ])('%s is %s (%s)', (address, kind, block) => {
    expect(special(address)).toEqual({ kind, block });
  });

  it.each([
    ['::ffff:127.0.0.1', { kind: 'loopback', block: '127.0.0.0/8', embedded: { address: '127.0.0.1', as: 'IPv4-mapped' } }],
    ['::ffff:7f00:1', { kind: 'loopback', block: '127.0.0.0/8', embedded: { address: '127.0.0.1', as: 'IPv4-mapped' } }],
    ['::ffff:a9fe:a9fe', { kind: 'link-local; cloud metadata is at 169.254.169.254', block: '169.254.0.0/16', embedded: { address: '169.254.169.254', as: 'IPv4-mapped' } }],
    ['64:ff9b::10.0.0.1', { kind: 'private', block: '10.0.0.0/8', embedded: { address: '10.0.0.1', as: 'NAT64' } }],
  ])('%s is its embedded IPv4 address', (address, expected) => {
    expect(special(address)).toEqual(expected);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '100.128.0.1', '169.255.0.1', '192.169.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'])('%s is public', (address) => {
    expect(special(address)).toBeUndefined();
  });
});
