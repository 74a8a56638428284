import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument } from '../../test/support/agent/fixtures';
import { stateWith } from '../../test/support/agent/state';
import { extractiveAnswer } from './extractive';
import { isListItem, MAX_GAP, procedureSpan, type SpanSentence } from './procedure-span';
import type { OpenedChunk } from './state';

function chunkOf(filename: string, text: string) {
  return makeChunk(makeDocument({ filename }), 0, text);
}

const KILN = chunkOf(
  'pottery-guide.pdf',
  [
    'Bisque firing – The dried pots are stacked loosely on the kiln shelves so that air can move between them.',
    'It is usually heated slowly over eight hours, so the remaining water escapes without cracking the clay.',
    'During a bisque firing, a cone on the shelf shows when the kiln has reached its temperature.',
    'Glaze firing – The glazed pots must not touch each other on the shelf.',
  ].join(' '),
);

describe('procedure answers quote the steps between quoted steps', () => {
  it('a procedure question gets the middle step that says "it" instead of naming the procedure', () => {
    const state = stateWith({ question: 'How is a bisque firing of the pots done?', opened: [KILN] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('stacked loosely');
    expect(ex.answer).toContain('heated slowly over eight hours');
    expect(ex.answer).toContain('a cone on the shelf');
    expect(ex.answer).not.toContain('Glaze firing');
  });

  it('a question that is no procedure quotes only the ranked sentences', () => {
    const state = stateWith({
      question: 'What shows that a bisque firing has reached its temperature?',
      opened: [KILN],
    });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).not.toContain('heated slowly over eight hours');
  });

  it('an unanswerable procedure question still declines with no citation', () => {
    const state = stateWith({ question: 'How is the studio membership fee paid?', opened: [KILN] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).not.toMatch(/\[\d+\]/);
    expect(ex.insufficiencies.length).toBeGreaterThan(0);
  });
});

describe('a procedure listed under a heading that names it', () => {
  const claim = (list: string) =>
    makeChunk(makeDocument({ filename: 'warranty.html', title: 'Aquaclear 300 – Warranty and Support' }), 0, list, {
      headingPath: 'How to make a claim',
    });
  const STEPS = [
    'How to make a claim',
    '',
    '- Find your proof of purchase.',
    '- Email support@aquaclear.example with the serial number and a photo of the fault.',
    '- Ship the unit to the address we send you; we pay return shipping within the EU.',
  ].join('\n');

  it('answers with every step, read under the heading, and does not call the heading words missing', () => {
    const state = stateWith({ question: 'How do I make a warranty claim?', opened: [claim(STEPS)] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('proof of purchase');
    expect(ex.answer).toContain('serial number');
    expect(ex.answer).toContain('Ship the unit');
    expect(ex.answer).not.toContain('do not mention');
  });

  it('a numbered list is quoted to its end, and the prose after it is not', () => {
    const chunk = makeChunk(
      makeDocument({ filename: 'leave-policy.md', title: 'Leave Policy' }),
      0,
      [
        '## 2. Requesting leave',
        '',
        '1. Submit the request in the HR portal at least 10 working days before the first day of leave.',
        '2. Your line manager approves or declines the request within 3 working days.',
        '3. Once approved, add the absence to the team calendar.',
        '',
        'Requests of more than 10 consecutive days also need approval from the department director.',
      ].join('\n'),
      { headingPath: 'Leave Policy > 2. Requesting leave' },
    );
    const ex = extractiveAnswer(stateWith({ question: 'How do I request leave?', opened: [chunk] }), 'concise');
    expect(ex.answer).toContain('HR portal');
    expect(ex.answer).toContain('team calendar');
  });

  it('a heading that names another procedure does not answer', () => {
    const state = stateWith({ question: 'How do I cancel my subscription?', opened: [claim(STEPS)] });
    expect(extractiveAnswer(state, 'concise').answer).not.toMatch(/\[\d+\]/);
  });

  it('reads list markers', () => {
    expect(isListItem('- Find your proof of purchase.')).toBe(true);
    expect(isListItem('2. Your line manager approves.')).toBe(true);
    expect(isListItem('(b) Ship the unit.')).toBe(true);
    expect(isListItem('2019 was a good year.')).toBe(false);
    expect(isListItem('Find your proof of purchase.')).toBe(false);
  });
});

function unit(opened: OpenedChunk, start: number, text = `Sentence at ${start}.`): SpanSentence {
  return { opened, sentence: { text, start, end: start + text.length } };
}

function opened(n: number): OpenedChunk {
  return {
    n,
    handle: `r${n}`,
    chunk: chunkOf(`doc${n}.txt`, 'text'),
    score: 1,
    injected: [],
    suspect: [],
    modelChars: 4,
  };
}

const noHeading = () => false;

describe('procedureSpan', () => {
  const a = opened(1);
  const b = opened(2);
  const pool = [0, 10, 20, 30, 40, 50].map((s) => unit(a, s));
  const other = [0, 10, 20].map((s) => unit(b, s));

  it('fills a gap of up to MAX_GAP sentences between two quoted sentences of one chunk', () => {
    const out = procedureSpan(
      [pool[0], pool[2]].filter((x) => x !== undefined),
      pool,
      noHeading,
    );
    expect(out.map((u) => u.sentence.start)).toEqual([0, 10, 20]);
  });

  it('does not fill a wider gap, nor across chunks, nor across a heading', () => {
    const wide = [pool[0], pool[MAX_GAP + 2]].filter((x) => x !== undefined);
    expect(procedureSpan(wide, pool, noHeading)).toHaveLength(2);
    const across = [pool[0], other[2]].filter((x) => x !== undefined);
    expect(procedureSpan(across, [...pool, ...other], noHeading)).toHaveLength(2);
    const headed = [pool[0], pool[2]].filter((x) => x !== undefined);
    expect(procedureSpan(headed, pool, () => true)).toHaveLength(2);
  });

  it('adds only pool sentences strictly between two picked ones of the same chunk, keeps every picked one', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: 11 }), { maxLength: 12 }), (indexes) => {
        const all = [...pool, ...other];
        const picked = indexes.map((i) => all[i % all.length]).filter((x): x is SpanSentence => x !== undefined);
        const uniquePicked = [...new Set(picked)];
        const out = procedureSpan(uniquePicked, all, noHeading);
        for (const p of uniquePicked) expect(out).toContain(p);
        for (const u of out) {
          if (uniquePicked.includes(u)) continue;
          expect(all).toContain(u);
          const same = uniquePicked.filter((p) => p.opened === u.opened).map((p) => p.sentence.start);
          expect(same.some((s) => s < u.sentence.start)).toBe(true);
          expect(same.some((s) => s > u.sentence.start)).toBe(true);
        }
        // reading order
        for (let i = 1; i < out.length; i++) {
          const x = out[i - 1];
          const y = out[i];
          if (!x || !y) continue;
          expect(x.opened.n < y.opened.n || (x.opened.n === y.opened.n && x.sentence.start < y.sentence.start)).toBe(
            true,
          );
        }
      }),
    );
  });
});
