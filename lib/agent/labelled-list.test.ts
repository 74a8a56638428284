import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument, NO_MODELS, OWNER } from '../../test/support/agent/fixtures';
import { createMemoryCatalog } from '../../test/support/agent/memory-catalog';
import { createMemoryChunkIndex } from '../../test/support/agent/memory-chunk-index';
import { stateWith } from '../../test/support/agent/state';
import { extractiveAnswer } from './extractive';
import { runAgent } from './run-agent';

const leaflet = makeChunk(
  makeDocument({ filename: 'vaccine-leaflet.md', title: 'Flu vaccine leaflet' }),
  0,
  [
    'The flu vaccine is offered every autumn to adults over 65.',
    '',
    '## Side effects',
    '',
    '- a sore arm where the injection was given',
    '- a slightly raised temperature',
    '- aching muscles for a day or two',
    '',
    'Most side effects pass within two days.',
  ].join('\n'),
);
const email = makeChunk(
  makeDocument({ filename: 'kickoff.eml', title: 'Kickoff', mime: 'message/rfc822' }),
  0,
  'Subject: Kickoff\nFrom: "Ada" <ada@example.org>\n\nThanks for coming today.\n\nAction items:\n1. Book the venue\n2. Draft the agenda\n3. Invite the speakers\n\nSee you next week.',
);

const ask = (question: string, opened = [leaflet]) =>
  extractiveAnswer(stateWith({ question, opened }), 'concise').answer;

describe('a list under a label that says what is asked', () => {
  it('must answer: the label and its items, each quoted verbatim and cited', () => {
    expect(ask('What are the side effects of the flu vaccine?')).toBe(
      [
        '"Side effects" [1]',
        '- "a sore arm where the injection was given" [1]',
        '- "a slightly raised temperature" [1]',
        '- "aching muscles for a day or two" [1]',
      ].join('\n'),
    );
    // numbered items under a colon label; "the email" is said by the format
    expect(ask('What are the action items in the email?', [email])).toBe(
      ['"Action items:" [1]', '- "Book the venue" [1]', '- "Draft the agenda" [1]', '- "Invite the speakers" [1]'].join(
        '\n',
      ),
    );
  });

  it('must not answer from the list: the label lacks an asked word, or the question asks a number, date or name', () => {
    expect(ask('What are the side effects of the measles vaccine?')).not.toContain('"Side effects" [1]');
    expect(ask('What are the rare side effects?')).not.toContain('"Side effects" [1]');
    expect(ask('How many side effects are listed?')).not.toContain('"Side effects" [1]');
    expect(ask('Who wrote the action items?', [email])).not.toContain('Action items:');
  });

  it('must not answer from the list: one item only, a sentence ending in a colon, or lists in two documents', () => {
    const one = makeChunk(makeDocument({ filename: 'a.md' }), 0, 'Side effects:\n- a sore arm\n\nThat is all.');
    expect(ask('What are the side effects?', [one])).not.toContain('"Side effects:"');
    const sentence = makeChunk(
      makeDocument({ filename: 'b.md' }),
      0,
      'The trial recorded these side effects. Please note the side effects below:\n- a rash\n- a headache',
    );
    expect(ask('What are the side effects?', [sentence])).not.toMatch(/^"Please note/);
    const other = makeChunk(makeDocument({ filename: 'c.md' }), 0, 'Side effects:\n- a rash\n- a headache');
    expect(ask('What are the side effects?', [leaflet, other])).not.toMatch(/^"Side effects"/);
  });
});

describe('through the run and its gate', () => {
  it('delivers the list checked by the gate, at most Medium (a list may go on beyond the passage)', async () => {
    const index = createMemoryChunkIndex();
    const doc = makeDocument({ filename: leaflet.filename, title: leaflet.title, documentId: leaflet.documentId });
    doc.chunkIds = [leaflet.chunkId];
    await index.upsert([leaflet]);
    const result = await runAgent(
      { question: 'What are the side effects of the flu vaccine?', ownerId: OWNER, mode: 'agent', style: 'concise' },
      { index, catalog: createMemoryCatalog([doc]), embedder: null, models: NO_MODELS },
    );
    expect(result.validated).toBe(true);
    expect(result.answer).toContain('- "a slightly raised temperature" [1]');
    expect(result.confidence).not.toBe('high');
  });
});
