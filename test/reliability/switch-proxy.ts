import net from 'node:net';

/**
 * A loopback TCP proxy that can be switched off (every connection is reset, as when the server behind it is
 * down) and on again, keeping its port: the client under test sees one URL that stops and starts answering.
 */
export interface SwitchProxy {
  url: string;
  setUp(up: boolean): void;
  close(): Promise<void>;
}

export async function startSwitchProxy(target: { host: string; port: number }): Promise<SwitchProxy> {
  let up = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (!up) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    setUp(next) {
      up = next;
      // going down also cuts connections already open (keep-alive sockets would otherwise keep working)
      if (!next) for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
