import { existsSync } from 'node:fs';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { installedLanguageFolder, joinCjk, ocrWorkerSettings, recognizeImage, shutdownOcr } from './ocr';
import { textLayerUsable } from './parsers/pdf';
import { rgbaToPpm } from './ppm';

afterAll(async () => {
  await shutdownOcr();
});

describe('OCR settings', () => {
  it('points tesseract.js at the installed language data on disk, never at a URL, and keeps no cache', () => {
    const settings = ocrWorkerSettings(['eng']);
    expect(settings.langs).toBe('eng');
    expect(settings.oem).toBe(1);
    expect(settings.options.cacheMethod).toBe('none');
    expect(settings.options.gzip).toBe(true);
    expect(path.isAbsolute(settings.options.langPath)).toBe(true);
    expect(settings.options.langPath).not.toMatch(/^[a-z]+:/i);
    expect(existsSync(path.join(settings.options.langPath, 'eng.traineddata.gz'))).toBe(true);
    expect(Object.keys(settings.options).sort()).toEqual(['cacheMethod', 'gzip', 'langPath', 'logger']);
  });

  it('combines several installed languages in one local folder and refuses ones that are not installed', () => {
    const settings = ocrWorkerSettings(['eng', 'fra']);
    expect(settings.langs).toBe('eng+fra');
    for (const code of ['eng', 'fra']) {
      expect(existsSync(path.join(settings.options.langPath, `${code}.traineddata.gz`))).toBe(true);
    }
    expect(installedLanguageFolder('xyz')).toBeNull();
    expect(installedLanguageFolder('../eng')).toBeNull();
    expect(() => ocrWorkerSettings(['deu'])).toThrow(/not installed/);
  });
});

describe('recognizeImage', () => {
  it('reads printed text from an image with a confidence', async () => {
    const canvas = createCanvas(900, 200);
    const context = canvas.getContext('2d');
    context.fillStyle = 'white';
    context.fillRect(0, 0, 900, 200);
    context.fillStyle = 'black';
    context.font = '48px sans-serif';
    context.fillText('Invoice 4721 was paid in full', 30, 110);
    const result = await recognizeImage(new Uint8Array(await canvas.encode('png')), ['eng']);
    expect(result.text).toMatch(/Invoice 4721 was paid in full/);
    expect(result.confidence).toBeGreaterThan(60);
    expect(result.words).toBeGreaterThanOrEqual(6);
    // the same pixels as uncompressed PPM (what a rendered PDF page is handed over as) read the same
    const ppm = await recognizeImage(rgbaToPpm(canvas.data(), 900, 200), ['eng']);
    expect(ppm).toEqual(result);
  }, 240_000); // OCR of a full page: seconds on an idle machine, minutes when the cores are shared
});

describe('textLayerUsable', () => {
  it('accepts real text and rejects empty, tiny and unmappable text layers', () => {
    expect(textLayerUsable('The quick brown fox jumps over the lazy dog.')).toBe(true);
    expect(textLayerUsable('')).toBe(false);
    expect(textLayerUsable('  3  ')).toBe(false);
    expect(textLayerUsable(`${'\uFFFD'.repeat(40)}abc`)).toBe(false);
    expect(textLayerUsable(`${'\uE000\uE001\uE002'.repeat(20)}a real sentence here`)).toBe(false);
  });
});

describe('joinCjk', () => {
  it('removes the spaces Tesseract puts between Han and kana characters, and only those', () => {
    expect(joinCjk('行政 处 罚 决定 书')).toBe('行政处罚决定书');
    expect(joinCjk('当 事 人 ， 法 定')).toBe('当事人，法定');
    expect(joinCjk('ひら がな と カタ カナ')).toBe('ひらがなとカタカナ');
    expect(joinCjk('[2019]13 号 Hello world')).toBe('[2019]13 号 Hello world');
    expect(joinCjk('한국 어 문장')).toBe('한국 어 문장');
    expect(joinCjk('plain English text')).toBe('plain English text');
  });
});
