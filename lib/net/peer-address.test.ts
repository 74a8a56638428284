import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPeerAddressStamp, PEER_HEADER, peerAddress } from '@/lib/net/peer-address';

/** A real Node HTTP server with the stamp installed: the handler sees the socket address, never a forged one. */
let server: http.Server;
let url: string;

beforeAll(async () => {
  installPeerAddressStamp();
  installPeerAddressStamp(); // idempotent
  server = http.createServer((req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ peer: peerAddress(headers) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('peer address stamp', () => {
  it("gives the handler the socket's address", async () => {
    const body = (await (await fetch(url)).json()) as { peer: string };
    expect(body.peer).toBe('127.0.0.1');
  });

  it('cannot be forged by the client', async () => {
    const forged = await fetch(url, {
      headers: { [PEER_HEADER]: 'guess 6.6.6.6', 'x-forwarded-for': '6.6.6.6' },
    });
    expect(((await forged.json()) as { peer: string }).peer).toBe('127.0.0.1');
  });

  it('a header this process did not write is ignored', () => {
    expect(peerAddress(new Headers({ [PEER_HEADER]: 'not-the-token 6.6.6.6' }))).toBeNull();
    expect(peerAddress(new Headers({ [PEER_HEADER]: '6.6.6.6' }))).toBeNull();
    expect(peerAddress(new Headers())).toBeNull();
  });
});
