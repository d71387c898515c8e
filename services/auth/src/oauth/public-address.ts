import { BlockList, isIP } from 'node:net';

/**
 * Addresses a server-side fetch must never reach (SSRF): loopback, private, link-local (cloud
 * metadata at 169.254.169.254), carrier-grade NAT, documentation, multicast and reserved ranges,
 * for IPv4 and IPv6, including IPv4 addresses embedded in IPv6 forms.
 */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NON_PUBLIC.addSubnet(net, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** `::ffff:10.0.0.1` and `::10.0.0.1` are IPv4 in disguise; judge the IPv4 inside. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match?.[1];
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  if (v4) return !NON_PUBLIC.check(v4, 'ipv4');
  if (/^::ffff:/i.test(address)) return false; // a mapped form we could not read: refuse
  return !NON_PUBLIC.check(address, 'ipv6');
}

export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  if (v4) return LOOPBACK.check(v4, 'ipv4');
  return LOOPBACK.check(address, 'ipv6');
}
