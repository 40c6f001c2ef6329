import ipaddr from 'ipaddr.js';

/**
 * Addresses an outbound request (a webhook delivery, a provider API call) must never reach unless
 * private destinations are allowed: they would let a campaign's `webhook_url` or a connection's
 * `api_base_url` probe the service's own network, or carry stored credentials there (SSRF). The
 * reason is the first range that holds the address, in this order: the metadata addresses before the
 * link-local and private ranges that contain them.
 */
const BLOCKED: Record<string, string[]> = {
  'cloud metadata': ['169.254.169.254/32', 'fd00:ec2::254/128'],
  unspecified: ['0.0.0.0/8', '::/128'],
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
  'carrier-grade NAT': ['100.64.0.0/10'],
  'link-local': ['169.254.0.0/16', 'fe80::/10'],
  reserved: ['192.0.0.0/24', '198.18.0.0/15', '240.0.0.0/4'],
  multicast: ['224.0.0.0/4', 'ff00::/8'],
};

const RANGES = Object.fromEntries(
  Object.entries(BLOCKED).map(([reason, cidrs]) => [reason, cidrs.map(ipaddr.parseCIDR)]),
);

/** NAT64 (RFC 6052 well-known prefix): the last 32 bits are an IPv4 address. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

const PUBLIC = 'public';

/** Why the address is refused (`loopback`, `private`, ...), or null when it is a public address. */
export function blockedReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return 'not an IP address';
  // `process` unwraps IPv4-mapped IPv6 (`::ffff:10.0.0.1`, `::ffff:a00:1`) to the IPv4 address.
  let ip = ipaddr.process(bare);
  if (ip.kind() === 'ipv6' && ip.match(NAT64)) {
    ip = ipaddr.fromByteArray(ip.toByteArray().slice(12));
  }
  const reason = ipaddr.subnetMatch(ip, RANGES, PUBLIC);
  return reason === PUBLIC ? null : reason;
}
