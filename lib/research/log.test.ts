import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendLog, MAX_LOG_ENTRIES, planChanges, researchLogEntrySchema } from './log';

const task = (id: string, title = id, query = `${id}?`) => ({ id, title, query });

describe('the research log', () => {
  it('stamps entries in order and keeps the newest when full', () => {
    const t0 = new Date('2026-01-01T10:00:00Z');
    let log = appendLog([], { type: 'answers', answered: 1, skipped: 2 }, t0);
    log = appendLog(log, { type: 'approved', tasks: 3, done: 0 }, new Date(t0.getTime() + 1500));
    expect(log).toEqual([
      { type: 'answers', answered: 1, skipped: 2, at: '2026-01-01T10:00:00.000Z' },
      { type: 'approved', tasks: 3, done: 0, at: '2026-01-01T10:00:01.500Z' },
    ]);
    expect(researchLogEntrySchema.array().parse(log)).toEqual(log);
    let full = log;
    for (let i = 0; i < MAX_LOG_ENTRIES + 5; i++) full = appendLog(full, { type: 'approved', tasks: i, done: 0 });
    expect(full).toHaveLength(MAX_LOG_ENTRIES);
    expect(full.at(-1)).toMatchObject({ tasks: MAX_LOG_ENTRIES + 4 });
  });

  it('rejects a malformed stored entry', () => {
    expect(researchLogEntrySchema.safeParse({ type: 'approved', tasks: 2 }).success).toBe(false);
    expect(researchLogEntrySchema.safeParse({ type: 'nope', at: 'x' }).success).toBe(false);
    expect(
      researchLogEntrySchema.safeParse({ type: 'status', status: 'clarifying', note: null, at: 'x' }).success,
    ).toBe(false);
  });
});

describe('plan changes', () => {
  it('counts an unchanged plan as no change', () => {
    const plan = [task('t1'), task('t2'), task('t3')];
    expect(planChanges(plan, plan)).toEqual({ edited: 0, moved: 0, deleted: 0, added: 0 });
  });
  it('counts edits, moves, deletions and additions', () => {
    const before = [task('t1'), task('t2'), task('t3'), task('t4')];
    // t4 moved first, t2 deleted, t3's title edited, one new task
    const after = [task('t4'), task('t1'), task('t3', 'Renamed'), { title: 'New', query: 'New?' }];
    expect(planChanges(before, after)).toEqual({ edited: 1, moved: 1, deleted: 1, added: 1 });
    // swapping two tasks moves one; a reversed plan of three moves two
    expect(planChanges(before, [task('t2'), task('t1'), task('t3'), task('t4')]).moved).toBe(1);
    expect(planChanges(before.slice(0, 3), [task('t3'), task('t2'), task('t1')]).moved).toBe(2);
    // an unknown id counts as added, not kept
    expect(planChanges(before, [task('zz')])).toEqual({ edited: 0, moved: 0, deleted: 4, added: 1 });
  });
  it('keeps its counts consistent for any edit', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constant(0)), { maxLength: 8 }),
        (ids, picks) => {
          const before = ids.map((i) => task(`t${i}`));
          const seen = new Set<number>();
          const after = picks.flatMap((p) => {
            if (p === 0) return [{ title: 'new', query: 'new?' }];
            if (seen.has(p)) return [];
            seen.add(p);
            return [task(`t${p}`)];
          });
          const c = planChanges(before, after);
          const kept = after.length - c.added;
          expect(kept + c.deleted).toBe(before.length);
          expect(c.moved).toBeGreaterThanOrEqual(0);
          expect(c.moved).toBeLessThanOrEqual(Math.max(0, kept - 1));
          expect(c.edited).toBe(0);
        },
      ),
    );
  });
});
