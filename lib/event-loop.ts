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
