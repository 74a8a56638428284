import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument, NO_MODELS, OWNER } from '../../test/support/agent/fixtures';
import { createMemoryCatalog } from '../../test/support/agent/memory-catalog';
import { createMemoryChunkIndex } from '../../test/support/agent/memory-chunk-index';
import { stateWith } from '../../test/support/agent/state';
import { askedMailField, mailHeaders } from './email-header';
import { extractiveAnswer } from './extractive';
import { runAgent } from './run-agent';

const EML = 'message/rfc822';

/** An e-mail's first passage as the mail parser writes it (lib/ingest/parsers/email.ts). */
function mail(subject: string, from: string, to: string, date: string, body: string, more: string[] = []) {
  const doc = makeDocument({
    filename: `${subject.toLowerCase().replace(/\W+/g, '-')}.eml`,
    title: subject,
    mime: EML,
  });
  const header = [`Subject: ${subject}`, `From: ${from}`, `To: ${to}`, ...more, `Date: ${date}`].join('\n');
  return makeChunk(doc, 0, `${header}\n\n${body}`, { headingPath: subject });
}

const BUDGET = mail(
  'Budget 2025 draft',
  '"Ada Lovelace" <ada@example.org>',
  '"Board" <board@example.org>',
  '2024-11-04T09:15:00.000Z',
  'Please find the draft budget attached. Travel is cut by a tenth.',
  ['Cc: "Grace Hopper" <grace@example.org>'],
);
const PICNIC = mail(
  'Summer picnic',
  '"Alan Turing" <alan@example.org>',
  '"Staff" <staff@example.org>',
  '2024-06-01T12:00:00.000Z',
  'The picnic is on Saturday at the lake.',
);

describe('which header field a question asks of an e-mail', () => {
  it('reads the field from the verb the header never says', () => {
    expect(askedMailField('Who sent the budget email?')).toBe('From');
    expect(askedMailField('Who wrote this e-mail?')).toBe('From');
    expect(askedMailField('Who is the sender of the message?')).toBe('From');
    expect(askedMailField('Who was the email sent to?')).toBe('To');
    expect(askedMailField('To whom was the message addressed?')).toBe('To');
    expect(askedMailField('Who are the recipients of the email?')).toBe('To');
    expect(askedMailField('When was the email sent?')).toBe('Date');
    expect(askedMailField('On what date was the picnic email written?')).toBe('Date');
    expect(askedMailField('What is the subject of the email?')).toBe('Subject');
    expect(askedMailField('What is attached to the email?')).toBe('Attachments');
    expect(askedMailField('Qui a envoyé ce courriel ?')).toBe('From');
    expect(askedMailField('Wer hat die E-Mail geschickt?')).toBe('From');
    expect(askedMailField('Wann wurde die E-Mail gesendet?')).toBe('Date');
  });

  it('asks no field: questions about what the e-mail says, or that do not name an e-mail', () => {
    expect(askedMailField('What does the email say about travel?')).toBeNull();
    expect(askedMailField('When is the picnic mentioned in the email?')).toBeNull();
    expect(askedMailField('Who sent the invoice?')).toBeNull();
    expect(askedMailField('When was the report published?')).toBeNull();
    expect(askedMailField('Wer hat die E-Mail gelesen?')).toBeNull();
  });

  it('reads only the header block at the top of the passage', () => {
    const headers = mailHeaders(BUDGET.text);
    expect(headers.get('From')).toBe('From: "Ada Lovelace" <ada@example.org>');
    expect(headers.get('Cc')).toBe('Cc: "Grace Hopper" <grace@example.org>');
    expect(mailHeaders('Minutes\nFrom: the chair\nTo: all').size).toBe(0);
  });
});

describe('answering from the header', () => {
  const ask = (question: string, opened = [BUDGET, PICNIC]) =>
    extractiveAnswer(stateWith({ question, opened }), 'concise').answer;

  it('must answer: the asked field of the e-mail the question names, quoted verbatim and cited', () => {
    expect(ask('Who sent the budget email?')).toBe('\u201CFrom: "Ada Lovelace" <ada@example.org>\u201D [1]');
    expect(ask('When was the picnic email sent?')).toBe('"Date: 2024-06-01T12:00:00.000Z" [2]');
    // the recipients with the copied ones
    expect(ask('Who was the budget email sent to?')).toBe(
      '\u201CTo: "Board" <board@example.org>\u201D [1] \u201CCc: "Grace Hopper" <grace@example.org>\u201D [1]',
    );
    // in French and German
    expect(ask('Qui a envoyé le courriel sur le budget ?')).toBe(
      '\u201CFrom: "Ada Lovelace" <ada@example.org>\u201D [1]',
    );
    expect(ask('Wann wurde die E-Mail gesendet?', [PICNIC])).toBe('"Date: 2024-06-01T12:00:00.000Z" [1]');
    // one e-mail opened: the question need not say which
    expect(ask('Who sent the email?', [PICNIC])).toBe('\u201CFrom: "Alan Turing" <alan@example.org>\u201D [1]');
  });

  it('must not answer from a header: two e-mails fit, or the question names something no e-mail says', () => {
    expect(ask('Who sent the email?')).not.toContain('From:');
    expect(ask('Who sent the invoice email?')).not.toMatch(/\[\d\]/);
    // a text that is no e-mail is read as text, its "From:" line is no sender
    const memo = makeChunk(makeDocument({ filename: 'memo.txt' }), 0, 'From: the chair\nTo: all members\n\nHi.');
    expect(ask('Who sent the email?', [memo])).not.toContain('From: the chair');
  });
});

describe('through the run and its gate', () => {
  it('delivers the header quote checked by the gate, High', async () => {
    const index = createMemoryChunkIndex();
    const docs = [BUDGET, PICNIC].map((c) =>
      makeDocument({ filename: c.filename, title: c.title, mime: EML, documentId: c.documentId }),
    );
    for (const [i, d] of docs.entries()) d.chunkIds = [[BUDGET, PICNIC][i]?.chunkId ?? ''];
    await index.upsert([BUDGET, PICNIC]);
    const result = await runAgent(
      { question: 'Who sent the budget email?', ownerId: OWNER, mode: 'agent', style: 'concise' },
      { index, catalog: createMemoryCatalog(docs), embedder: null, models: NO_MODELS },
    );
    expect(result.validated).toBe(true);
    expect(result.answer).toContain('From: "Ada Lovelace" <ada@example.org>');
    expect(result.citations[0]?.filename).toBe('budget-2025-draft.eml');
    // High and unmarked: an e-mail's header block (names and addresses) is not instruction-like text. Classifier v9
    // marked this fixture (p ≈ 0.79), which made the answer Medium; v10 was trained on e-mails and header blocks
    // (docs/benchmarks-agent.md, "Ordinary e-mails and business text").
    expect(result.citations[0]?.instructionLike).toBeFalsy();
    expect(result.confidence).toBe('high');
  });
});
