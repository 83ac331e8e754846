import fc from 'fast-check';
import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseIpAddress } from './http-ip-address.ts';

/** The canonical text of an IPv6 address, as the URL parser writes it: the oracle for the parsed bytes. */
const canonicalIpv6 = (text: string): string => new URL(`http://[${text}]/`).hostname;

/** `bytes` (16) written out as eight groups, no `::`, which the URL parser canonicalises. */
const fullIpv6 = (bytes: Uint8Array): string => Array.from({ length: 8 }, (_, index) => ((bytes[index * 2]! << 8) | bytes[index * 2 + 1]!).toString(16)).join(':');

/** Text near an address: pieces of addresses, separators and digits, so the cases sit on the edges of the grammar. */
const addressLike = fc
  .array(fc.constantFrom('0', '1', '9', '00', '255', '256', '01', 'ffff', 'FFFF', '12345', 'g', '.', ':', '::', '%', 'eth0', '_', '-', ' ', '1.2.3.4'), { maxLength: 12 })
  .map((pieces) => pieces.join(''));

describe('parseIpAddress', () => {
  it('reads every IPv4 address to its four bytes', () => {
    fc.assert(
      fc.property(fc.ipV4(), (text) => {
        expect(Array.from(parseIpAddress(text) ?? []).join('.')).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('reads every IPv6 address (with ::, an IPv4 tail or a zone) to the bytes the URL parser reads', () => {
    fc.assert(
      fc.property(fc.ipV6(), fc.option(fc.constantFrom('eth0', '1', 'lo.2')), (text, zone) => {
        const bytes = parseIpAddress(zone === null ? text : `${text}%${zone}`);
        expect(bytes).toHaveLength(16);
        expect(canonicalIpv6(fullIpv6(bytes!))).toBe(canonicalIpv6(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('takes exactly what net.isIP takes, as 4 or 16 bytes', () => {
    fc.assert(
      fc.property(fc.oneof(addressLike, fc.ipV4Extended(), fc.ipV6(), fc.string()), (text) => {
        expect(parseIpAddress(text)?.length ?? 0).toBe({ 0: 0, 4: 4, 6: 16 }[isIP(text)]);
      }),
      { numRuns: 3000 },
    );
  });

  it.each(['127.1', '0x7f.0.0.1', '0177.0.0.1', '127.0.0.01', '2130706433', '1.2.3.4.5', '1::2::3', '1:2:3:4:5:6:7:8::', '::01.2.3.4', '1.2.3.4::', 'fe80::1%', 'fe80::1%a_b', '[::1]', ''])(
    'refuses %j, which is no address a socket or resolver gives',
    (text) => {
      expect(parseIpAddress(text)).toBeUndefined();
    },
  );
});
