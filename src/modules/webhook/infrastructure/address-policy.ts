import { BlockList, isIP } from 'net';

/**
 * Addresses a webhook must never reach unless private destinations are allowed: they would let a
 * campaign's `webhook_url` probe the service's own network (SSRF).
 */
const RANGES: { cidr: string; reason: string }[] = [
  { cidr: '0.0.0.0/8', reason: 'unspecified' },
  { cidr: '10.0.0.0/8', reason: 'private' },
  { cidr: '100.64.0.0/10', reason: 'carrier-grade NAT' },
  { cidr: '127.0.0.0/8', reason: 'loopback' },
  { cidr: '169.254.169.254/32', reason: 'cloud metadata' },
  { cidr: '169.254.0.0/16', reason: 'link-local' },
  { cidr: '172.16.0.0/12', reason: 'private' },
  { cidr: '192.0.0.0/24', reason: 'reserved' },
  { cidr: '192.168.0.0/16', reason: 'private' },
  { cidr: '198.18.0.0/15', reason: 'reserved' },
  { cidr: '224.0.0.0/4', reason: 'multicast' },
  { cidr: '240.0.0.0/4', reason: 'reserved' },
  { cidr: '::/128', reason: 'unspecified' },
  { cidr: '::1/128', reason: 'loopback' },
  { cidr: 'fd00:ec2::254/128', reason: 'cloud metadata' },
  { cidr: 'fc00::/7', reason: 'private' },
  { cidr: 'fe80::/10', reason: 'link-local' },
  { cidr: 'ff00::/8', reason: 'multicast' },
];

const lists = RANGES.map(({ cidr, reason }) => {
  const [network, prefix] = cidr.split('/');
  const list = new BlockList();
  const family = isIP(network) === 6 ? 'ipv6' : 'ipv4';
  list.addSubnet(network, Number(prefix), family);
  return { list, family, reason };
});

/** An IPv4 address carried in IPv6 (`::ffff:10.0.0.1`, `::ffff:a00:1`, NAT64 `64:ff9b::a00:1`). */
function embeddedIpv4(address: string): string | null {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(
    address,
  );
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = parseInt(m[2], 16);
  const lo = parseInt(m[3], 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Why the address is refused (`loopback`, `private`, ...), or null when it is a public address. */
export function blockedReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const v4 = isIP(bare) === 6 ? embeddedIpv4(bare) : null;
  const ip = v4 ?? bare;
  const family = isIP(ip) === 6 ? 'ipv6' : isIP(ip) === 4 ? 'ipv4' : null;
  if (family === null) return 'not an IP address';
  for (const entry of lists) {
    if (entry.family === family && entry.list.check(ip, family)) return entry.reason;
  }
  return null;
}
