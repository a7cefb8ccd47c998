import ipaddr from 'ipaddr.js';

/** Why an address is refused, as shown in messages and `details.range`. */
export type BlockedRange =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'carrier-grade-nat'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'metadata'
  | 'reserved'
  | 'invalid';

/** The indefinite article of each range's name in messages ("an unspecified address"); a new range must name its own. */
const RANGE_ARTICLES: Readonly<Record<BlockedRange, 'a' | 'an'>> = {
  loopback: 'a',
  private: 'a',
  'link-local': 'a',
  'unique-local': 'a', // "you-", a consonant sound
  'carrier-grade-nat': 'a',
  multicast: 'a',
  unspecified: 'an',
  broadcast: 'a',
  metadata: 'a',
  reserved: 'a',
  invalid: 'an',
};

/** The range as messages name it, with its article: "a loopback", "an unspecified". */
export function rangeWithArticle(range: BlockedRange): string {
  return `${RANGE_ARTICLES[range]} ${range}`;
}

// Cloud instance-metadata endpoints; most also fall in a blocked range, but naming them helps users.
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

const V4_RANGE_NAMES: Record<string, BlockedRange> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade-nat',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
};

const V6_RANGE_NAMES: Record<string, BlockedRange> = {
  loopback: 'loopback',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'private',
  multicast: 'multicast',
  unspecified: 'unspecified',
};

/**
 * Classifies an IP address for the private-network policy: `null` when it is public unicast,
 * otherwise the blocked range. Only public unicast passes (an allow-list, so new special ranges
 * are refused by default). IPv4 embedded in IPv6 (mapped, NAT64, 6to4) is judged as IPv4.
 */
export function blockedRangeOf(address: string): BlockedRange | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  const parsed = ipaddr.parse(address);
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString())) return 'metadata';
  if (parsed.kind() === 'ipv4') return classifyV4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  const embedded = embeddedV4(v6);
  if (embedded) return METADATA_ADDRESSES.has(embedded.toString()) ? 'metadata' : classifyV4(embedded);
  const range = v6.range();
  if (range === 'unicast') return null;
  return V6_RANGE_NAMES[range] ?? 'reserved';
}

function classifyV4(v4: ipaddr.IPv4): BlockedRange | null {
  const range = v4.range();
  if (range === 'unicast') return null;
  return V4_RANGE_NAMES[range] ?? 'reserved';
}

/** The IPv4 address an IPv6 one carries: ::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::/96 (NAT64), 2002::/16 (6to4). */
function embeddedV4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = v6.range();
  const p = v6.parts; // eight 16-bit groups
  const fromGroups = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (range === 'ipv4Mapped' || range === 'rfc6052' || range === 'rfc6145') return fromGroups(p[6] ?? 0, p[7] ?? 0);
  if (range === '6to4') return fromGroups(p[1] ?? 0, p[2] ?? 0);
  return null;
}

/** A parsed exemption list: CIDRs (or single addresses) the policy lets through. */
export type AllowList = ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

/** Parses `allowedNetworks`; a malformed entry throws, since config should fail fast. */
export function parseAllowList(cidrs: readonly string[]): AllowList {
  return cidrs.map((cidr) => (cidr.includes('/') ? ipaddr.parseCIDR(cidr) : singleAddress(cidr)));
}

function singleAddress(address: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const parsed = ipaddr.parse(address);
  return [parsed, parsed.kind() === 'ipv4' ? 32 : 128];
}

/** True when the address falls in one of the exempt networks (IPv4-mapped IPv6 compared as IPv4). */
export function isExempt(address: string, allow: AllowList): boolean {
  if (allow.length === 0 || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return allow.some(([net, bits]) => net.kind() === parsed.kind() && parsed.match(net, bits));
}

/** The policy decision for one resolved or literal address. */
export function checkAddress(address: string, allow: AllowList): BlockedRange | null {
  const range = blockedRangeOf(address);
  return range !== null && isExempt(address, allow) ? null : range;
}
