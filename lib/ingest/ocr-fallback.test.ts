import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseReading, dominantScript, newOcrDocumentMemory, type OcrResult } from './ocr';

const OCR = { languages: ['eng'], fallbackLanguages: ['chi_sim'], minConfidence: 45 };

interface Page {
  eng: OcrResult;
  chi_sim: OcrResult;
}

const latinNoise: OcrResult = { text: 'TEAL SIRES HEE F(2019]13 F LEA BRERSERIZHERRTELE', confidence: 30, words: 7 };
const chinese: OcrResult = { text: '行政处罚决定书\n常关缉违字 [2019]13 号\n当事人', confidence: 87, words: 5 };
const english: OcrResult = {
  text: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit.',
  confidence: 94,
  words: 8,
};
const englishInChinese: OcrResult = { text: 'Lorem ipsurn dolor sit arnet, consectetur', confidence: 70, words: 6 };
const photoEng: OcrResult = { text: 'eg I IE A al', confidence: 23, words: 5 };
const photoChi: OcrResult = { text: '二了 和 本 生', confidence: 8, words: 4 };

/** A reader over one page's readings that records which language sets were asked for. */
function reader(page: Page, calls: string[]): (languages: readonly string[]) => Promise<OcrResult> {
  return async (languages) => {
    const key = languages.join('+');
    calls.push(key);
    if (key !== 'eng' && key !== 'chi_sim') throw new Error(`unexpected languages ${key}`);
    return page[key];
  };
}

describe('dominantScript', () => {
  it('names the script most letters are in, Japanese kana counted with Han', () => {
    expect(dominantScript('Hello world')).toBe('Latin');
    expect(dominantScript('行政处罚决定书 abc')).toBe('Han');
    expect(dominantScript('これはテストです日本')).toBe('Han');
    expect(dominantScript('Привет мир, hi')).toBe('Cyrillic');
    expect(dominantScript('한국어 텍스트')).toBe('Hangul');
    expect(dominantScript('ሰላም ዓለም')).toBe('other');
    expect(dominantScript('12 34 — ;')).toBeNull();
    expect(dominantScript('')).toBeNull();
  });
});

describe('chooseReading', () => {
  it('without a document memory reads as before: English first, the fallback only under the threshold', async () => {
    const calls: string[] = [];
    expect(await chooseReading(reader({ eng: english, chi_sim: englishInChinese }, calls), OCR)).toBe(english);
    expect(calls).toEqual(['eng']);
    const again: string[] = [];
    expect(await chooseReading(reader({ eng: latinNoise, chi_sim: chinese }, again), OCR)).toBe(chinese);
    expect(again).toEqual(['eng', 'chi_sim']);
  });

  it('skips the English pass on the next page of a document the fallback read in its own script', async () => {
    const memory = newOcrDocumentMemory();
    const first: string[] = [];
    expect(await chooseReading(reader({ eng: latinNoise, chi_sim: chinese }, first), OCR, memory)).toBe(chinese);
    expect(first).toEqual(['eng', 'chi_sim']);
    expect(memory.learned).toEqual({ language: 'chi_sim', script: 'Han' });
    const second: string[] = [];
    expect(await chooseReading(reader({ eng: latinNoise, chi_sim: chinese }, second), OCR, memory)).toBe(chinese);
    expect(second).toEqual(['chi_sim']);
  });

  it('still reads an English page that follows Chinese ones with English, and forgets the Chinese hint', async () => {
    const memory = newOcrDocumentMemory();
    await chooseReading(reader({ eng: latinNoise, chi_sim: chinese }, []), OCR, memory);
    const calls: string[] = [];
    // the Chinese model reads English confidently, but in Latin letters: not taken, English is run and wins
    expect(await chooseReading(reader({ eng: english, chi_sim: englishInChinese }, calls), OCR, memory)).toBe(english);
    expect(calls).toEqual(['chi_sim', 'eng']);
    expect(memory.learned).toBeNull();
  });

  it('refuses a picture after Chinese pages exactly as before, re-using the Chinese reading already made', async () => {
    const memory = newOcrDocumentMemory();
    await chooseReading(reader({ eng: latinNoise, chi_sim: chinese }, []), OCR, memory);
    const calls: string[] = [];
    const result = await chooseReading(reader({ eng: photoEng, chi_sim: photoChi }, calls), OCR, memory);
    expect(result).toBe(photoEng);
    expect(result.confidence).toBeLessThan(OCR.minConfidence);
    expect(calls).toEqual(['chi_sim', 'eng']);
  });

  it('learns nothing from a page English found no letters on', async () => {
    const memory = newOcrDocumentMemory();
    const blank: OcrResult = { text: '| — 12', confidence: 20, words: 1 };
    expect(await chooseReading(reader({ eng: blank, chi_sim: englishInChinese }, []), OCR, memory)).toBe(
      englishInChinese,
    );
    expect(memory.learned).toBeNull();
  });

  it('learns nothing from a fallback that reads the same script (a second Latin language)', async () => {
    const memory = newOcrDocumentMemory();
    const french: OcrResult = { text: 'Le conseil municipal a voté le budget', confidence: 80, words: 7 };
    const ocr = { ...OCR, fallbackLanguages: ['fra'] };
    const read = async (languages: readonly string[]) => (languages[0] === 'eng' ? latinNoise : french);
    expect(await chooseReading(read, ocr, memory)).toBe(french);
    expect(memory.learned).toBeNull();
  });

  it('never loses a page the reading without memory indexes, and differs only by a confident other-script reading', async () => {
    // the English model writes Latin letters only; the Chinese one writes both scripts
    const reading = (texts: string[]) =>
      fc.record({
        text: fc.constantFrom(...texts),
        confidence: fc.integer({ min: 0, max: 100 }),
        words: fc.integer({ min: 0, max: 50 }),
      });
    const latin = [latinNoise.text, english.text, photoEng.text, '', '12 34'];
    const any = [...latin, chinese.text, englishInChinese.text, photoChi.text];
    const pages = fc.array(fc.record({ eng: reading(latin), chi_sim: reading(any) }), {
      minLength: 1,
      maxLength: 8,
    });
    await fc.assert(
      fc.asyncProperty(pages, async (doc) => {
        const memory = newOcrDocumentMemory();
        for (const page of doc) {
          const before = await chooseReading(reader(page, []), OCR);
          const after = await chooseReading(reader(page, []), OCR, memory);
          if (after === before) continue;
          // the only change: a confident reading in another script than English's, taken without the English pass
          expect(after).toBe(page.chi_sim);
          expect(after.confidence).toBeGreaterThanOrEqual(OCR.minConfidence);
          expect(after.words).toBeGreaterThan(0);
          expect(dominantScript(after.text)).not.toBe('Latin');
          expect(dominantScript(after.text)).not.toBeNull();
        }
      }),
    );
  });
});
