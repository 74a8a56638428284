import { getConfig } from '@/lib/config';
import { parseTrustedProxies, resolveClientIp, type TrustedProxies } from '@/lib/net/client-ip';
import { PEER_HEADER, peerAddress } from '@/lib/net/peer-address';

/** The header Better Auth reads the client address from (advanced.ipAddress.ipAddressHeaders); set only by us. */
export const CLIENT_IP_HEADER = 'x-docuchat-client-ip';

let trusted: { source: readonly string[]; parsed: TrustedProxies } | undefined;

function trustedProxies(): TrustedProxies {
  const source = getConfig().trustedProxies;
  if (trusted?.source !== source) trusted = { source, parsed: parseTrustedProxies(source) };
  return trusted.parsed;
}

/** The client address of a request under the configured TRUSTED_PROXIES (see client-ip.ts), or null. */
export function requestClientIp(headers: Headers): string | null {
  return resolveClientIp({ peer: peerAddress(headers), headers, trusted: trustedProxies() });
}

/**
 * The request as Better Auth should see it: CLIENT_IP_HEADER holds the resolved client address (whatever the
 * client sent under that name is dropped), and the private peer stamp is not passed on.
 */
export function withResolvedClientIp(request: Request): Request {
  const headers = new Headers(request.headers);
  const ip = requestClientIp(request.headers);
  headers.delete(PEER_HEADER);
  if (ip) headers.set(CLIENT_IP_HEADER, ip);
  else headers.delete(CLIENT_IP_HEADER);
  return new Request(request, { headers });
}
