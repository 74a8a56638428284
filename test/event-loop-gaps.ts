/**
 * Measures how long the event loop goes without a turn while some work runs: a setImmediate chain records the
 * longest gap between two of its ticks. Test support only.
 */
export function startGapMeter(): { stop(): { maxGapMs: number; ticks: number } } {
  let last = performance.now();
  let maxGapMs = 0;
  let ticks = 0;
  let running = true;
  const tick = () => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
    ticks++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop() {
      running = false;
      return { maxGapMs: Math.max(maxGapMs, performance.now() - last), ticks };
    },
  };
}
