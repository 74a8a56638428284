import net from 'node:net';

/**
 * The client address of a request, honest by default: forwarding headers (X-Forwarded-For, Forwarded, X-Real-IP)
 * are believed only when the request reached us from a configured trusted proxy (TRUSTED_PROXIES, IPs or CIDRs;
 * none by default). Otherwise the address is the socket's peer (see peer-address.ts). With trusted proxies the
 * client is the right-most hop that is not itself a trusted proxy: every hop to its left was written by someone
 * we do not trust, so it could be anything.
 *
 * IP and CIDR matching uses Node's net.BlockList (IPv4-mapped IPv6 addresses match their IPv4 ranges).
 */

export interface TrustedProxies {
  /** Whether any proxy is configured. */
  readonly any: boolean;
  has(ip: string): boolean;
}

/** Parses TRUSTED_PROXIES entries ("10.0.0.0/8", "::1", "192.168.1.7"); an invalid entry throws, naming it. */
export function parseTrustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new net.BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    const slash = entry.indexOf('/');
    const address = slash === -1 ? entry : entry.slice(0, slash);
    const family = net.isIP(address);
    const maxBits = family === 4 ? 32 : 128;
    const prefixText = slash === -1 ? String(maxBits) : entry.slice(slash + 1);
    const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
    if (family === 0 || !(prefix >= 0 && prefix <= maxBits)) {
      throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    }
    list.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return {
    any: entries.length > 0,
    has: (ip: string) => {
      const family = net.isIP(ip);
      return family !== 0 && list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** An address as a bare IP: strips brackets, a port and an IPv6 zone; maps ::ffff:a.b.c.d to a.b.c.d. Null if not an IP. */
export function normalizeIp(value: string | null | undefined): string | null {
  if (!value) return null;
  let ip = value.trim();
  if (ip.startsWith('"') && ip.endsWith('"') && ip.length >= 2) ip = ip.slice(1, -1);
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(ip);
  if (bracketed?.[1]) ip = bracketed[1];
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}$/.test(ip)) ip = ip.slice(0, ip.lastIndexOf(':'));
  ip = ip.replace(/%[\w.-]+$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) ip = mapped[1];
  const family = net.isIP(ip);
  if (family === 0) return null;
  return family === 6 ? ip.toLowerCase() : ip;
}

/** The hops a request names, client first: X-Forwarded-For, else Forwarded's `for=`, else X-Real-IP. */
export function forwardedHops(headers: Headers): string[] {
  const xff = headers.get('x-forwarded-for');
  if (xff?.trim()) return xff.split(',').map((s) => s.trim());
  const forwarded = headers.get('forwarded');
  if (forwarded?.trim()) {
    return forwarded.split(',').map((element) => {
      for (const pair of element.split(';')) {
        const eq = pair.indexOf('=');
        if (eq !== -1 && pair.slice(0, eq).trim().toLowerCase() === 'for') return pair.slice(eq + 1).trim();
      }
      return '';
    });
  }
  const real = headers.get('x-real-ip');
  return real?.trim() ? [real.trim()] : [];
}

/**
 * The client address, or null when none can be trusted. `peer` is the socket's address (null when the platform
 * gives none: then forwarding headers are used only if trusted proxies are configured, on the assumption that the
 * platform's own proxy is the peer).
 */
export function resolveClientIp({
  peer,
  headers,
  trusted,
}: {
  peer: string | null;
  headers: Headers;
  trusted: TrustedProxies;
}): string | null {
  const peerIp = normalizeIp(peer);
  if (peerIp && !trusted.has(peerIp)) return peerIp;
  if (!peerIp && !trusted.any) return null;
  const hops = forwardedHops(headers);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeIp(hops[i]);
    // a hop that is not an address ("unknown", garbage) ends the trustworthy part of the chain
    if (!hop) return peerIp;
    if (!trusted.has(hop) || i === 0) return hop;
  }
  return peerIp;
}
