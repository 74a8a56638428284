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
