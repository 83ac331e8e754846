/**
 * IP address text to bytes, for the http pack's address check
 * (`http-special-address.ts`). It takes exactly what `net.isIP` takes (the
 * forms a resolver, the URL parser and a socket give): dotted decimal IPv4
 * without leading zeros, and IPv6 with at most one `::`, an optional dotted
 * IPv4 tail and an optional zone (`fe80::1%eth0`, which is dropped). Any
 * other text, octal or hexadecimal IPv4 parts included, is no address.
 */

const IPV4_PART = /^(0|[1-9][0-9]{0,2})$/;
const IPV6_GROUP = /^[0-9a-fA-F]{1,4}$/;
/** The characters `net.isIP` takes in a zone id. */
const ZONE = /^[0-9a-zA-Z.:-]+$/;

/** The 4 bytes of an IPv4 or 16 bytes of an IPv6 address, or undefined when `text` is neither. */
export function parseIpAddress(text: string): Uint8Array | undefined {
  return text.includes(':') ? parseIpv6(text) : parseIpv4(text);
}

function parseIpv4(text: string): Uint8Array | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = new Uint8Array(4);
  for (const [index, part] of parts.entries()) {
    if (!IPV4_PART.test(part)) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes[index] = value;
  }
  return bytes;
}

/** The 16-bit groups `text` (one side of a `::`) names; a dotted IPv4 is taken only as the address's last part. */
function groupsOf(text: string, last: boolean): number[] | undefined {
  if (text === '') return [];
  const parts = text.split(':');
  const groups: number[] = [];
  for (const [index, part] of parts.entries()) {
    if (IPV6_GROUP.test(part)) {
      groups.push(Number.parseInt(part, 16));
      continue;
    }
    const ipv4 = last && index === parts.length - 1 ? parseIpv4(part) : undefined;
    if (ipv4 === undefined) return undefined;
    groups.push((ipv4[0]! << 8) | ipv4[1]!, (ipv4[2]! << 8) | ipv4[3]!);
  }
  return groups;
}

function parseIpv6(text: string): Uint8Array | undefined {
  const percent = text.indexOf('%');
  if (percent >= 0 && !ZONE.test(text.slice(percent + 1))) return undefined;
  const address = percent < 0 ? text : text.slice(0, percent);
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  let groups: number[];
  if (halves.length === 1) {
    const all = groupsOf(address, true);
    if (all === undefined || all.length !== 8) return undefined;
    groups = all;
  } else {
    const head = groupsOf(halves[0]!, false);
    const tail = groupsOf(halves[1]!, true);
    // `::` stands for at least one group of zeros.
    if (head === undefined || tail === undefined || head.length + tail.length > 7) return undefined;
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  const bytes = new Uint8Array(16);
  for (const [index, group] of groups.entries()) {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  }
  return bytes;
}
