import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';

/**
 * The socket's peer address for route handlers. Next.js 16 route handlers get a Web Request without the socket,
 * and Next's own server only fills `X-Forwarded-For` with the peer address when the client sent none (`??=`), so a
 * client that sends its own header hides its address. So the Node server that Next.js runs on stamps every
 * incoming request, before Next.js sees it, with a private header: a per-process random token and
 * `socket.remoteAddress`. The token makes the stamp unforgeable (a client-sent header of the same name is
 * overwritten, and one without the right token is ignored).
 *
 * Installed once per process from instrumentation.ts (which runs in the server process before requests are
 * handled); in a process without it (unit tests, other hosts) peerAddress() answers null.
 */

export const PEER_HEADER = 'x-docuchat-peer';

const state = globalThis as unknown as { docuchatPeerToken?: string; docuchatPeerStampInstalled?: boolean };

function token(): string {
  state.docuchatPeerToken ??= crypto.randomBytes(18).toString('base64url');
  return state.docuchatPeerToken;
}

/** Writes the stamp onto a Node request (exported for tests). */
export function stampPeer(request: http.IncomingMessage): void {
  request.headers[PEER_HEADER] = `${token()} ${request.socket?.remoteAddress ?? ''}`;
}

/** Patches http(s).Server so every 'request' event is stamped first. Idempotent. */
export function installPeerAddressStamp(): void {
  if (state.docuchatPeerStampInstalled) return;
  state.docuchatPeerStampInstalled = true;
  for (const Server of [http.Server, https.Server]) {
    const original = Server.prototype.emit as (
      this: http.Server,
      event: string | symbol,
      ...args: unknown[]
    ) => boolean;
    const stamped = function emit(this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
      if (event === 'request' && args[0] instanceof http.IncomingMessage) stampPeer(args[0]);
      return original.call(this, event, ...args);
    };
    Server.prototype.emit = stamped as typeof Server.prototype.emit;
  }
}

/** The peer address stamped on this request, or null (no stamp, or one this process did not write). */
export function peerAddress(headers: Headers): string | null {
  const value = headers.get(PEER_HEADER);
  if (!value) return null;
  const space = value.indexOf(' ');
  if (space === -1) return null;
  const given = Buffer.from(value.slice(0, space));
  const expected = Buffer.from(token());
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  return value.slice(space + 1) || null;
}
