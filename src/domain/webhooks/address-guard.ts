import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Address4, Address6 } from 'ip-address';
import { badRequest } from '../errors.js';

/** A range that a webhook may reach although its addresses are not public (WEBHOOK_ALLOWED_HOSTS). */
export interface AllowedRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

export interface AddressGuardSettings {
  /** Any address at all (WEBHOOK_ALLOW_PRIVATE): a registry whose receivers live on its own network. */
  allowPrivate: boolean;
  /** Host names (as written in the URL) and ranges let through whatever their addresses. */
  allowedHosts: { names: readonly string[]; ranges: readonly AllowedRange[] };
  /** The registry's own host name (PUBLIC_URL): never a receiver, unless allowed as above. */
  ownHost: string;
}

/** Where a delivery connects: the URL, and the address checked for it, which is the one connected to. */
export interface CheckedTarget {
  url: URL;
  hostname: string;
  address: string;
  family: 4 | 6;
}

/**
 * Ranges no webhook reaches unless an administrator allows it: unspecified, loopback, private (RFC 1918, fc00::/7),
 * shared (RFC 6598), link-local (169.254/16 with the cloud metadata address, fe80::/10), multicast, reserved and
 * broadcast, the documentation and benchmarking ranges, and IPv6's transition forms of them (mapped, NAT64, 6to4).
 * ip-address does the parsing and the range tests, rather than hand-written octet arithmetic.
 */
const BLOCKED_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
].map((range) => new Address4(range));
const BLOCKED_V6 = ['::/128', '::1/128', 'fc00::/7', 'fe80::/10', 'fec0::/10', 'ff00::/8', '2001:db8::/32', '100::/64'].map(
  (range) => new Address6(range),
);

function v4Blocked(address: Address4): boolean {
  return BLOCKED_V4.some((range) => address.isInSubnet(range));
}

/** Whether an address is one no webhook may reach by default (see BLOCKED_V4, BLOCKED_V6). */
export function isBlockedAddress(ip: string): boolean {
  if (isIP(ip) === 4) return v4Blocked(new Address4(ip));
  const address = new Address6(ip);
  if (BLOCKED_V6.some((range) => address.isInSubnet(range))) return true;
  // An IPv4 address written as IPv6 (::ffff:a.b.c.d, 64:ff9b::a.b.c.d, 2002:aabb:ccdd::) reaches that IPv4 address.
  if (address.is4() || address.isInSubnet(new Address6('::ffff:0:0/96'))) return v4Blocked(address.to4());
  if (address.isInSubnet(new Address6('64:ff9b::/96'))) return v4Blocked(Address4.fromHex(address.getBitsBase16(96, 128)));
  if (address.is6to4()) return v4Blocked(Address4.fromHex(address.getBitsBase16(16, 48)));
  return false;
}

function inRange(ip: string, range: AllowedRange): boolean {
  const family = isIP(ip) === 4 ? 'ipv4' : 'ipv6';
  if (family !== range.family) return false;
  return family === 'ipv4'
    ? new Address4(ip).isInSubnet(new Address4(`${range.address}/${range.prefix}`))
    : new Address6(ip).isInSubnet(new Address6(`${range.address}/${range.prefix}`));
}

/** This host's own addresses, which a webhook must not call back into. */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const i of list ?? []) own.add(i.address.toLowerCase());
  return own;
}

const refused = (detail: string) => badRequest('webhook_url_refused', detail, [{ field: 'url', message: detail }]);

/**
 * Checks a webhook URL and settles the address a delivery connects to: http or https, no credentials in it, and every
 * address its host resolves to public and not the registry's own, unless WEBHOOK_ALLOW_PRIVATE or
 * WEBHOOK_ALLOWED_HOSTS let it through. Run when a subscription is made or changed and again before every delivery
 * (DNS may answer differently later); the delivery then connects to the address checked here, never to a name
 * resolved again, so a name cannot pass the check with one address and be reached at another.
 */
export function addressGuard(settings: AddressGuardSettings, resolve = (host: string) => lookup(host, { all: true, verbatim: true })) {
  const ownHost = settings.ownHost.toLowerCase();

  return async function check(raw: string): Promise<CheckedTarget> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refused(`"${raw}" is not an absolute URL; give one such as https://hooks.example.com/skill-registry.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused(`A webhook URL must be http or https (got ${url.protocol}).`);
    if (url.username !== '' || url.password !== '') {
      throw refused('A webhook URL carries no user name or password: verify deliveries by their signature instead.');
    }
    const hostname = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
    const namedAllowed = settings.allowedHosts.names.includes(hostname);
    let addresses: { address: string; family: number }[];
    if (isIP(hostname) !== 0) addresses = [{ address: hostname, family: isIP(hostname) }];
    else {
      try {
        addresses = await resolve(hostname);
      } catch {
        throw refused(`The host ${hostname} does not resolve; give a URL whose host has a public address.`);
      }
      if (addresses.length === 0) throw refused(`The host ${hostname} does not resolve; give a URL whose host has a public address.`);
    }
    const own = ownAddresses();
    for (const { address } of addresses) {
      const allowed = settings.allowPrivate || namedAllowed || settings.allowedHosts.ranges.some((range) => inRange(address, range));
      if (allowed) continue;
      if (isBlockedAddress(address) || own.has(address.toLowerCase()) || hostname === ownHost) {
        throw refused(
          `${hostname} resolves to ${address}, which is not a public address (loopback, private, link-local, multicast or the ` +
            "registry's own); webhooks reach public addresses only. An operator may allow a host with WEBHOOK_ALLOWED_HOSTS.",
        );
      }
    }
    const first = addresses[0] as { address: string; family: number };
    return { url, hostname, address: first.address, family: first.family === 6 ? 6 : 4 };
  };
}

export type AddressCheck = ReturnType<typeof addressGuard>;
