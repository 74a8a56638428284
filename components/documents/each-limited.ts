/** Runs `work` over `items` with at most `limit` in flight; collects failures instead of stopping. */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<unknown[]> {
  const errors: unknown[] = [];
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      if (item === undefined) continue;
      try {
        await work(item);
      } catch (error) {
        errors.push(error);
      }
    }
  });
  await Promise.all(runners);
  return errors;
}
