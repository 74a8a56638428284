import { describe, expect, it } from 'vitest';
import { memoByText } from './memo';

describe('memoByText', () => {
  it('computes once per text and returns the same value', () => {
    let calls = 0;
    const f = memoByText((t) => {
      calls++;
      return { length: t.length };
    }, 4);
    const a = f('abc');
    expect(f('abc')).toBe(a);
    expect(calls).toBe(1);
  });

  it('evicts the least recently used text, not the least recently added', () => {
    const seen: string[] = [];
    const f = memoByText((t) => {
      seen.push(t);
      return t.toUpperCase();
    }, 2);
    f('a');
    f('b');
    f('a'); // a is now the most recent
    f('c'); // evicts b
    f('a');
    expect(seen).toEqual(['a', 'b', 'c']);
    f('b');
    expect(seen).toEqual(['a', 'b', 'c', 'b']);
  });

  it('stays bounded', () => {
    let calls = 0;
    const f = memoByText((t) => {
      calls++;
      return t;
    }, 3);
    for (let i = 0; i < 10; i++) f(String(i));
    f('0');
    expect(calls).toBe(11);
  });
});
