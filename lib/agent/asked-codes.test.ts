import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument } from '../../test/support/agent/fixtures';
import { stateWith } from '../../test/support/agent/state';
import { askedCodes, codesMissing, holdsCode, isCode } from './asked-codes';
import { extractiveAnswer } from './extractive';

describe('what an identifier is', () => {
  it('codes mixing letters and digits are identifiers', () => {
    for (const c of ['150109-DSP-Milw-505', '0050003A', 'SNB22-3', 'S355J2', 'A380', 'F-150', 'i9-9900K', 'TK4411-20'])
      expect(isCode(c), c).toBe(true);
  });

  it('numbers, years, short names, ordinals, measures and word compounds are not', () => {
    for (const c of [
      '2019',
      '737-8',
      '01/09/2015',
      'COVID-19',
      'H2SO4',
      '3D',
      'MP3',
      'A5',
      '21st',
      '1990s',
      '100km',
      '32GB',
      '1080p',
      'pre-2000',
      'mid-1990s',
      '100-year-old',
      '19th-century',
    ])
      expect(isCode(c), c).toBe(false);
  });

  it('reads them out of a question', () => {
    expect(askedCodes('What happened in case 150109-DSP-Milw-505 in 2015?')).toEqual(['150109-DSP-Milw-505']);
    expect(askedCodes('How many votes in precinct 0050003A for the A5 flyer?')).toEqual(['0050003A']);
    expect(askedCodes('What is the tensile strength of JIS G 4303 grade SUS304?')).toEqual(['SUS304']);
    expect(askedCodes('When did COVID-19 reach the US?')).toEqual([]);
    expect(askedCodes('东北电气发展股份有限公司2018年第一季度营业收入是多少?')).toEqual([]);
    expect(askedCodes('型号SNB22-3的重量是多少?')).toEqual(['SNB22-3']);
  });
});

describe('finding an identifier in evidence', () => {
  it('must answer: the same code with other separators, case or leading zeros', () => {
    expect(holdsCode('150109DSP-Milw-505.pdf', '150109-DSP-Milw-505')).toBe(true);
    expect(holdsCode('case_150109_dsp_milw_505.docx', '150109-DSP-Milw-505')).toBe(true);
    expect(holdsCode('Precinct 50003A totals', '0050003A')).toBe(true);
    expect(holdsCode('Grade : | SNB 22-3', 'SNB22-3')).toBe(true);
    expect(holdsCode('型号SNB22-3重量', 'SNB22-3')).toBe(true);
  });

  it('must decline: another code, or the code inside a longer one', () => {
    expect(holdsCode('Case 150109-DSP-Milw-506', '150109-DSP-Milw-505')).toBe(false);
    expect(holdsCode('Precinct 0050003B', '0050003A')).toBe(false);
    expect(holdsCode('Grade SNB22-35', 'SNB22-3')).toBe(false);
    expect(holdsCode('Grade XSNB22-3', 'SNB22-3')).toBe(false);
    expect(codesMissing('What was filed in case AB-1234?', 'Case AB-1243 was filed in May.')).toEqual(['AB-1234']);
  });

  const alnum = fc.constantFrom(...'ABCDEFGHJKMNPQRSTUVWXYZ0123456789');
  const code = fc
    .tuple(
      fc.array(alnum, { minLength: 2, maxLength: 5 }),
      fc.array(fc.constantFrom(...'0123456789'), { minLength: 3, maxLength: 6 }),
      fc.array(alnum, { minLength: 0, maxLength: 4 }),
    )
    .map(([a, d, b]) => `${a.join('')}${d.join('')}${b.join('')}`)
    .filter((c) => /\p{L}/u.test(c) && !c.startsWith('0'));

  it('property: the same code re-separated and re-cased is always held', () => {
    const sep = fc.constantFrom('', '-', ' ', '_', '/', '.');
    fc.assert(
      fc.property(code, fc.array(sep, { minLength: 12, maxLength: 12 }), fc.boolean(), (c, seps, lower) => {
        const written = [...c].map((ch, i) => (i === 0 ? ch : `${seps[i % seps.length]}${ch}`)).join('');
        expect(holdsCode(`Record ${lower ? written.toLowerCase() : written}: closed.`, c)).toBe(true);
      }),
    );
  });

  it('property: a code changed in one character is never held', () => {
    fc.assert(
      fc.property(code, fc.nat(), alnum, (c, at, ch) => {
        const i = at % c.length;
        fc.pre(c[i]?.toLowerCase() !== ch.toLowerCase() && !(i === 0 && ch === '0'));
        const other = `${c.slice(0, i)}${ch}${c.slice(i + 1)}`;
        expect(holdsCode(`Record ${other}: closed.`, c)).toBe(false);
        expect(holdsCode(`Record ${c}: closed.`, other)).toBe(false);
      }),
    );
  });
});

const RECORD = makeChunk(
  makeDocument({ filename: 'precinct-results.pdf' }),
  0,
  'Precinct 0050003A results\nThe turnout in the precinct was 412 voters.\nThe polling place was the Lincoln school.',
);

describe('an answer about another record declines', () => {
  it('must decline: the question names another precinct', () => {
    const state = stateWith({ question: 'What was the turnout in precinct 0050004A?', opened: [RECORD] });
    const answer = extractiveAnswer(state, 'concise').answer;
    expect(answer).not.toMatch(/\[\d+\]/);
    // the decline names the code as the question wrote it
    expect(answer).toMatch(/do not mention .*"0050004A"/);
  });

  it('must decline: the question names another case; the decline names that case as the question wrote it', () => {
    const doc = makeDocument({ filename: 'summary-report.pdf' });
    const report = makeChunk(
      doc,
      0,
      'Case Tracking Number: 151201-DSP-FOND-581 Agency: County Department of Social Services\nDate of Incident: 12/01/2015\nThe agency received a report regarding the incident on December 1, 2015.',
    );
    const other = extractiveAnswer(
      stateWith({ question: 'On what date did the incident in case 150109-DSP-Milw-505 occur?', opened: [report] }),
      'concise',
    ).answer;
    expect(other).not.toMatch(/\[\d+\]/);
    expect(other).toMatch(/do not mention .*"150109-DSP-Milw-505"/);
    const own = extractiveAnswer(
      stateWith({ question: 'On what date did the incident in case 151201-dsp-fond-581 occur?', opened: [report] }),
      'concise',
    ).answer;
    expect(own).toMatch(/12\/01\/2015|December 1, 2015/);
  });

  it('must answer: the asked precinct, whatever its letter case', () => {
    for (const code of ['0050003A', '0050003a']) {
      const state = stateWith({ question: `What was the turnout in precinct ${code}?`, opened: [RECORD] });
      const ex = extractiveAnswer(state, 'concise');
      expect(ex.answer).toContain('412');
      expect(ex.answer).toMatch(/\[\d+\]/);
    }
  });
});
