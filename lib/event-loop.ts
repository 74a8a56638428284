import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Event-loop delay of this server process (perf_hooks.monitorEventLoopDelay), sampled every 20 ms since the
 * monitor started (at boot from instrumentation.ts, or at the first health check). High values mean CPU-bound work
 * on the main thread is delaying every request.
 */

export interface EventLoopDelay {
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const globalForLoop = globalThis as unknown as { docuchatLoopDelay?: IntervalHistogram };

export function startEventLoopMonitor(): void {
  if (globalForLoop.docuchatLoopDelay) return;
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  globalForLoop.docuchatLoopDelay = histogram;
}

const ms = (ns: number) => (Number.isFinite(ns) ? Math.round(ns / 1e4) / 100 : 0);

export function readEventLoopDelay(): EventLoopDelay {
  startEventLoopMonitor();
  const h = globalForLoop.docuchatLoopDelay as IntervalHistogram;
  if (h.count === 0) return { meanMs: 0, p50Ms: 0, p99Ms: 0, maxMs: 0 };
  return { meanMs: ms(h.mean), p50Ms: ms(h.percentile(50)), p99Ms: ms(h.percentile(99)), maxMs: ms(h.max) };
}

/**
 * Keeping the event loop free while the server does bulk work in its own process (writing ten thousand chunk
 * rows, loading an owner's index partition): long synchronous loops are cut into slices, and between slices the
 * loop gets a turn (setImmediate runs after pending I/O callbacks, so waiting requests are answered first).
 */

/** Resolves on the next turn of the event loop, after the I/O callbacks already waiting. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Work slice length before a time slicer yields: short enough that a waiting request is barely delayed. */
export const DEFAULT_SLICE_MS = 10;

/**
 * A slicer for a long loop: `await slice()` once per item yields to the event loop whenever `sliceMs` have passed
 * since the last yield (cheap otherwise: a clock read).
 */
export function createTimeSlicer(sliceMs = DEFAULT_SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    const now = performance.now();
    if (now - since < sliceMs) return undefined;
    return yieldToEventLoop().then(() => {
      since = performance.now();
    });
  };
}
