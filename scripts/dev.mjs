// npm run dev: the same set-up as npm start, then the Next.js dev server with hot reload.
import { ensureInstalled, generateClients, log, migrate, run } from './lib.mjs';

try {
  ensureInstalled();
  generateClients();
  migrate();
  const port = process.env.PORT ?? '3000';
  log(`dev server on http://localhost:${port}`);
  run('npx', ['next', 'dev', '-p', port], { env: { NEXT_TELEMETRY_DISABLED: '1', PORT: port } });
} catch (error) {
  console.error(`\n[docuchat] dev failed: ${error.message}`);
  process.exit(error.exitCode ?? 1);
}
