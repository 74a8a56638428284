import { describe, expect, it } from 'vitest';
import { eachLimited } from './each-limited';

describe('eachLimited', () => {
  it('runs every item, never more than the limit at once, and collects failures without stopping', async () => {
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    const errors = await eachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5 + (n % 3)));
      running -= 1;
      if (n % 3 === 0) throw new Error(`bad ${n}`);
      done.push(n);
    });
    expect(peak).toBe(3);
    expect(done.sort()).toEqual([1, 2, 4, 5, 7]);
    expect(errors.map((e) => (e as Error).message).sort()).toEqual(['bad 3', 'bad 6']);
  });

  it('does nothing for no items', async () => {
    expect(await eachLimited([], 4, async () => {})).toEqual([]);
  });
});
