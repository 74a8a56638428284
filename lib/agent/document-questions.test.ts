import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument, NO_MODELS, OWNER } from '../../test/support/agent/fixtures';
import { createMemoryCatalog } from '../../test/support/agent/memory-catalog';
import { createMemoryChunkIndex } from '../../test/support/agent/memory-chunk-index';
import { namesSubject, subjectTerms } from './document-answer';
import { documentQuestion } from './document-questions';
import { runAgent } from './run-agent';
import { namingSection } from './tools/follow-reference';
import { detectReferences } from './tools/references';

describe('documentQuestion (questions about the library, not a passage)', () => {
  it.each([
    ['Which of my documents were written by Martin Thoma?', 'authorship', 'Martin Thoma', null],
    ['Which documents did Jane Doe write?', 'authorship', 'Jane Doe', null],
    ['Quels documents ont été écrits par Martin Thoma ?', 'authorship', 'Martin Thoma', null],
    ['Welche Dokumente wurden von Martin Thoma geschrieben?', 'authorship', 'Martin Thoma', null],
    ['Welche meiner Dokumente hat Martin Thoma geschrieben?', 'authorship', 'Martin Thoma', null],
    ['What do my documents say about the Boeing Company?', 'mentions', 'Boeing Company', null],
    ['Which documents mention Boeing?', 'mentions', 'Boeing', null],
    ['In which documents is Boeing mentioned?', 'mentions', 'Boeing', null],
    ['Que disent mes documents sur la société Boeing ?', 'mentions', 'société Boeing', null],
    ['Quels documents mentionnent Boeing ?', 'mentions', 'Boeing', null],
    ['Was sagen meine Dokumente über Boeing?', 'mentions', 'Boeing', null],
    ['Welche Dokumente erwähnen Boeing?', 'mentions', 'Boeing', null],
    ['What are the French municipal documents about?', 'about', 'municipal', 'fr'],
    ['De quoi parlent les documents municipaux français ?', 'about', 'municipaux', 'fr'],
    ['Worum geht es in den deutschen Vertragsdokumenten?', null, null, null],
    ['What are the German tax reports about?', 'about', 'tax', 'de'],
  ])('%s', (question, kind, subject, language) => {
    const dq = documentQuestion(question);
    if (kind === null) expect(dq).toBeNull();
    else expect(dq).toEqual({ kind, subject, language });
  });

  it.each([
    'Who is the author of the essay "How to Get New Ideas"?',
    'What does the report say about revenue?',
    'Which company made the 737 MAX?',
    'How many documents were filed in 2015?',
    'Which French municipality wrote the plan?',
    'What is it about?',
    'What is the notice period?',
    'Summarize this.',
    'What does the document say about refunds?',
  ])('does not take a passage question for one about documents: %s', (question) => {
    expect(documentQuestion(question)).toBeNull();
  });

  // An overview reads the openings of the documents in scope (subject '') or of the one named (the catalog decides
  // whether a document has that name: run-agent.ts).
  it.each([
    ['What is the document about?', ''],
    ["What's this PDF about?", ''],
    ['What does this report cover?', ''],
    ['Summarize this document', ''],
    ['Please summarise the document.', ''],
    ['Can you give me a brief overview of the uploaded file?', ''],
    ['What are my documents about?', ''],
    ['What do the documents say?', ''],
    ['Give me a short summary of my documents', ''],
    ['De quoi parle ce document ?', ''],
    ['Résume ce document.', ''],
    ['Worum geht es in diesem Dokument?', ''],
    ['Fasse das Dokument zusammen.', ''],
    ['What is handbook-1p.docx about?', 'handbook-1p.docx'],
    ['Summarize "Annual Report 2023"', 'Annual Report 2023'],
    ['Tell me about the employee handbook', 'employee handbook'],
    ['Describe the refund process', 'refund process'],
    ['Summarize the main points of handbook-1p.docx', 'handbook-1p.docx'],
    ['What are the key findings of "Annual Report 2023"?', 'Annual Report 2023'],
  ])('an overview: %s', (question, subject) => {
    expect(documentQuestion(question)).toEqual({ kind: 'overview', subject, language: null });
  });

  it('finds any name in the question forms, and never a language in the subject of a mention', () => {
    const name = fc
      .array(fc.stringMatching(/^[A-Z][a-z]{2,9}$/), { minLength: 1, maxLength: 3 })
      .map((w) => w.join(' '));
    fc.assert(
      fc.property(name, (subject) => {
        expect(documentQuestion(`Which of my documents were written by ${subject}?`)).toEqual({
          kind: 'authorship',
          subject,
          language: null,
        });
        expect(documentQuestion(`What do my documents say about ${subject}?`)?.subject).toBe(subject);
        expect(documentQuestion(`What do my documents say about French ${subject}?`)).toMatchObject({
          subject: `French ${subject}`,
          language: null,
        });
      }),
      { numRuns: 100 },
    );
  });
});

describe('namesSubject', () => {
  it('needs every word of the subject, words of one family counting', () => {
    const terms = subjectTerms('Boeing Company');
    expect(namesSubject('This AD applies to The Boeing Company Model 737-8 airplanes.', terms)).toBe(true);
    expect(namesSubject('Boeing Commercial Airplanes, Seal Beach.', terms)).toBe(false);
    expect(namesSubject('Conseil municipal de Chelsea', subjectTerms('municipalité'))).toBe(true);
    expect(namesSubject('anything at all', [])).toBe(false);
  });
});

describe('section references', () => {
  it('detects lettered appendices in the three languages, not "an appendix"', () => {
    expect(detectReferences('How long they are kept is set out in Appendix B.').map((r) => r.target)).toEqual(['B']);
    expect(detectReferences('Siehe die Tabelle in Anhang C.').map((r) => r.target)).toEqual(['C']);
    expect(detectReferences('Voir l’annexe A.').map((r) => r.target)).toEqual([]);
    expect(detectReferences('Voir Annexe A.').map((r) => r.target)).toEqual(['A']);
    expect(detectReferences('The table is in an appendix at the end.')).toEqual([]);
  });

  it('resolves a section to the passage carrying its label, and keeps every hit when none does', () => {
    const hit = (text: string, headingPath: string | null = null) => ({
      chunkId: text,
      documentId: 'd',
      index: 0,
      filename: 'guide.md',
      title: null,
      snippet: text,
      text,
      score: 1,
      scores: {},
      page: null,
      sheet: null,
      rowStart: null,
      rowEnd: null,
      headingPath,
      charStart: 0,
      charEnd: text.length,
    });
    const ref = { type: 'section' as const, target: '4.2', original: 'Section 4.2' };
    const hits = [
      hit(`Section 4.1 Authentication.${' Signed.'.repeat(20)} See 4.2 below.`),
      hit('Section 4.2 Retries.'),
      hit('x', 'A > 4.2'),
    ];
    expect(namingSection(hits, ref).map((h) => h.chunkId)).toEqual(['Section 4.2 Retries.', 'x']);
    expect(namingSection([hit('Section 4.21 Other.'), hit('Table 14.2')], ref)).toHaveLength(2);
    expect(namingSection(hits, { ...ref, type: 'document' })).toHaveLength(3);
  });
});

/** A small library: two papers by one author, one mention of her, a French and an English municipal minute. */
async function library() {
  const d = {
    paper: makeDocument({ filename: 'creativity.pdf', title: 'Creativity in Machine Learning' }),
    notes: makeDocument({ filename: 'geo-notes-2016.pdf', title: 'Geometrie und Topologie' }),
    review: makeDocument({ filename: 'review.pdf' }),
    fr: makeDocument({ filename: 'pv-2023-06-20.pdf', title: 'Comité de démolition' }),
    en: makeDocument({ filename: 'council-minutes.pdf' }),
  };
  const index = createMemoryChunkIndex();
  await index.upsert([
    makeChunk(
      d.paper,
      0,
      'Creativity in Machine Learning\nAda Lovelace\nE-Mail: ada@example.org\nAbstract. Models can be creative.',
    ),
    makeChunk(d.notes, 0, 'Vorwort\nDieses Skript wurde im Wintersemester 2013/2014 von Ada Lovelace geschrieben.'),
    makeChunk(d.review, 3, 'Related work. As Ada Lovelace argued, engines could compose music of any complexity.'),
    makeChunk(
      d.fr,
      0,
      'COMITÉ DE DÉMOLITION\nProcès-verbal de la séance publique du conseil municipal.\nLa demande de démolition du bâtiment est approuvée à l’unanimité par les membres présents.',
    ),
    makeChunk(d.en, 0, 'Minutes of the municipal council. The council approved the new bicycle lanes on Main Street.'),
  ]);
  return { index, catalog: createMemoryCatalog(Object.values(d)) };
}

async function ask(question: string) {
  const { index, catalog } = await library();
  return runAgent(
    { question, ownerId: OWNER, mode: 'agent', style: 'concise' },
    { index, catalog, embedder: null, models: NO_MODELS },
  );
}

describe('document-level questions through runAgent (extractive mode)', () => {
  it('lists the documents a person wrote, with authorship evidence, and not one that only cites her', async () => {
    const r = await ask('Which of my documents were written by Ada Lovelace?');
    expect(r.validated).toBe(true);
    expect(r.answer).toContain(
      '- creativity.pdf (Creativity in Machine Learning): "Creativity in Machine Learning Ada Lovelace"',
    );
    expect(r.answer).toContain('- geo-notes-2016.pdf (Geometrie und Topologie): "Vorwort Dieses Skript wurde im');
    expect(r.answer).toContain('von Ada Lovelace geschrieben."');
    expect(r.answer).not.toContain('review.pdf');
    expect(new Set(r.citations.map((c) => c.filename))).toEqual(new Set(['creativity.pdf', 'geo-notes-2016.pdf']));
  });

  it('answers "what do my documents say about X" with one quoted line per document', async () => {
    const r = await ask('What do my documents say about Ada Lovelace?');
    expect(r.validated).toBe(true);
    expect(r.answer.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(3);
    expect(r.answer).toContain(
      '- review.pdf: "As Ada Lovelace argued, engines could compose music of any complexity."',
    );
  });

  it('restricts "the French … documents" to documents in French', async () => {
    const r = await ask('What are the French municipal documents about?');
    expect(r.validated).toBe(true);
    expect(r.answer).toContain('pv-2023-06-20.pdf (Comité de démolition)');
    expect(r.answer).not.toContain('council-minutes.pdf');
  });

  it('declines with no citation when no document names the person as an author', async () => {
    const r = await ask('Which of my documents were written by Charles Babbage?');
    expect(r.citations).toEqual([]);
    expect(r.answer).not.toMatch(/\.pdf/);
  });
});
