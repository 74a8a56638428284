import { afterEach, describe, expect, it, vi } from 'vitest';

const created: string[] = [];
const terminated: string[] = [];

vi.mock('tesseract.js', () => ({
  createWorker: async (langs: string) => {
    created.push(langs);
    return {
      recognize: async () => ({ data: { text: `read with ${langs}`, confidence: 90 } }),
      terminate: async () => {
        terminated.push(langs);
      },
    };
  },
}));

const { recognizeImage, shutdownOcr } = await import('./ocr');
const image = new Uint8Array([1, 2, 3]);

afterEach(async () => {
  await shutdownOcr();
  created.length = 0;
  terminated.length = 0;
});

describe('Tesseract workers', () => {
  it('keeps one worker per language set: pages alternating between two sets load each model once', async () => {
    for (const languages of [['eng'], ['chi_sim'], ['eng'], ['chi_sim'], ['eng']]) {
      const result = await recognizeImage(image, languages);
      expect(result.text).toBe(`read with ${languages.join('+')}`);
    }
    expect(created).toEqual(['eng', 'chi_sim']);
    expect(terminated).toEqual([]);
  });

  it('keeps at most three sets, dropping the least recently used, and terminates all on shutdown', async () => {
    for (const languages of [['eng'], ['chi_sim'], ['fra'], ['eng'], ['eng', 'fra']]) {
      await recognizeImage(image, languages);
    }
    expect(created).toEqual(['eng', 'chi_sim', 'fra', 'eng+fra']);
    await vi.waitFor(() => expect(terminated).toEqual(['chi_sim']));
    await shutdownOcr();
    expect(terminated.sort()).toEqual(['chi_sim', 'eng', 'eng+fra', 'fra']);
  });
});
