import ipaddr from 'ipaddr.js';

/** Addresses of cloud instance-metadata services, named as such in refusals. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200']);

const IPV4_RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified (0.0.0.0/8) address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT (shared) address',
  private: 'a private address',
  reserved: 'a reserved address',
  as112: 'a reserved (AS112) address',
  amt: 'a reserved (AMT) address',
  benchmarking: 'a reserved (benchmarking) address',
};

const IPV6_RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified IPv6 address',
  linkLocal: 'a link-local IPv6 address',
  multicast: 'a multicast IPv6 address',
  loopback: 'a loopback address',
  uniqueLocal: 'a unique-local IPv6 address',
  deprecatedSiteLocal: 'a site-local IPv6 address',
  teredo: 'a Teredo IPv6 address',
};

/** True when `text` is an IPv4 or IPv6 address literal (IPv6 without brackets). */
export function isIpAddress(text: string): boolean {
  return ipaddr.isValid(text);
}

/** Strips the brackets the URL parser leaves around IPv6 hosts. */
export function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Why an address must not be fetched, as a phrase ("a private address"), or `undefined` when it
 * is a public unicast address. IPv6 forms that carry an IPv4 address (IPv4-mapped, NAT64,
 * 6to4, IPv4-translated, IPv4-compatible) are judged by the IPv4 address inside them.
 */
export function classifyAddress(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(unbracket(address));
  } catch {
    return 'not a valid IP address';
  }
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString())) {
    return 'a cloud metadata address';
  }
  if (parsed.kind() === 'ipv4') {
    const range = (parsed as ipaddr.IPv4).range();
    return range === 'unicast' ? undefined : (IPV4_RANGE_NAMES[range] ?? `a ${range} address`);
  }
  return classifyIpv6(parsed as ipaddr.IPv6);
}

function classifyIpv6(address: ipaddr.IPv6): string | undefined {
  const range = address.range();
  if (range === 'rfc6052' && address.parts[2] === 1) return 'a local-use NAT64 address';
  const embedded = embeddedIpv4(address);
  if (embedded) {
    const inner = classifyAddress(embedded.toString());
    return inner === undefined ? undefined : `${inner.replace(/^an? /, 'an IPv6 form of a ')}`;
  }
  if (range !== 'unicast') return IPV6_RANGE_NAMES[range] ?? 'a reserved IPv6 address';
  // Only 2000::/3 is allocated for global unicast; everything else IANA still holds in reserve.
  const first = address.parts[0] ?? 0;
  return (first & 0xe000) === 0x2000 ? undefined : 'a reserved IPv6 address';
}

/** The IPv4 address carried inside an IPv6 address, for the forms that carry one. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const parts = address.parts;
  const range = address.range();
  const fromWords = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  if (range === 'ipv4Mapped' || range === 'rfc6145') return fromWords(parts[6] ?? 0, parts[7] ?? 0);
  if (range === 'rfc6052') {
    // 64:ff9b::/96 carries the address in its last 32 bits; the local-use 64:ff9b:1::/48 is
    // local by definition and is refused as a whole (its embedding depends on the prefix).
    return parts.slice(2, 6).every((part) => part === 0)
      ? fromWords(parts[6] ?? 0, parts[7] ?? 0)
      : undefined;
  }
  if (range === '6to4') return fromWords(parts[1] ?? 0, parts[2] ?? 0);
  // IPv4-compatible (::a.b.c.d, deprecated): the first 96 bits are zero; :: and ::1 are not.
  if (parts.slice(0, 6).every((part) => part === 0) && (parts[6] ?? 0) !== 0) {
    return fromWords(parts[6] ?? 0, parts[7] ?? 0);
  }
  return undefined;
}
