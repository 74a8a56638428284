// Worker-thread entry of the parse sandbox (see sandbox.ts). Plain ESM JavaScript that imports only packages,
// so it runs the same under Node, the Next.js server and vitest: it registers tsx's loader inside this worker
// and then loads the TypeScript implementation beside it. One job at a time; the parent terminates the whole
// worker on timeout, out-of-memory or cancellation.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

if (!parentPort) throw new Error('parse-worker.mjs must run as a worker thread');
const port = parentPort;

register();
const { parseAndChunkPath } = await import('./parse-and-chunk.ts');
const { IngestError } = await import('./errors.ts');

port.on('message', async (message) => {
  if (message?.type !== 'job') return;
  // Everything but the job's id and path is parseAndChunkPath's options, as sandbox.ts sent them.
  const { type: _type, id, path, ...options } = message;
  let lastProgress = 0;
  const onProgress = (progress) => {
    const now = Date.now();
    if (progress.fraction < 1 && now - lastProgress < 100) return;
    lastProgress = now;
    port.postMessage({ type: 'progress', id, stage: progress.stage, fraction: progress.fraction });
  };
  try {
    const { parsed, chunks, derived, timings } = await parseAndChunkPath(path, { ...options, onProgress });
    port.postMessage({ type: 'result', id, ok: true, parsed, chunks, derived, timings });
  } catch (error) {
    if (error instanceof IngestError) {
      port.postMessage({ type: 'result', id, ok: false, code: error.code, reason: error.message });
    } else {
      const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      port.postMessage({
        type: 'result',
        id,
        ok: false,
        code: 'internal',
        reason: `parser failed: ${detail.slice(0, 300)}`,
      });
    }
  }
});
port.postMessage({ type: 'ready' });
