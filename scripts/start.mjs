// npm start: install if needed, generate the database clients, migrate, build, and serve on http://localhost:3000
// with the embedded defaults (SQLite in ./data, the embedded chunk index, local files). PORT changes the port.
import { buildIfStale, ensureInstalled, generateClients, log, migrate, run } from './lib.mjs';

const started = Date.now();
try {
  ensureInstalled();
  generateClients();
  migrate();
  buildIfStale();
  const port = process.env.PORT ?? '3000';
  log(`ready after ${Math.round((Date.now() - started) / 1000)} s; serving on http://localhost:${port}`);
  // Idle keep-alive sockets stay open past the usual 60 s of proxies and HTTP clients, so a client never writes a
  // request into a socket the server is closing (Node's default is 5 s; that race surfaces as ECONNRESET).
  run('npx', ['next', 'start', '-p', port, '--keepAliveTimeout', '65000'], {
    // APP_URL defaults to http://localhost:$PORT (lib/config.ts)
    env: { NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', PORT: port },
  });
} catch (error) {
  console.error(`\n[docuchat] start failed: ${error.message}`);
  process.exit(error.exitCode ?? 1);
}
