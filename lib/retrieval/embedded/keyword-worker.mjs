// Worker-thread entry of the keyword search pool (see keyword-pool.ts). Plain ESM JavaScript that imports only
// packages, so it runs the same under Node, the Next.js server and vitest (as parse-worker.mjs does): it registers
// tsx's loader inside this worker and then loads the TypeScript implementation beside it.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

if (!parentPort) throw new Error('keyword-worker.mjs must run as a worker thread');

register();
const { serveKeywordSearches } = await import('./keyword-worker-main.ts');
serveKeywordSearches(parentPort);
