import { createCanvas } from '@napi-rs/canvas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rgbaToPpm } from './ppm';

function header(ppm: Uint8Array): { text: string; length: number } {
  // "P6\n<w> <h>\n255\n": three newlines
  let newlines = 0;
  let end = 0;
  while (newlines < 3 && end < ppm.length) if (ppm[end++] === 10) newlines++;
  return { text: new TextDecoder().decode(ppm.subarray(0, end)), length: end };
}

describe('rgbaToPpm', () => {
  it('writes a P6 header and the RGB bytes of opaque pixels unchanged', () => {
    const rgba = new Uint8Array([
      255, 0, 0, 255, 1, 2, 3, 255, 0, 0, 0, 255, 10, 200, 30, 255, 9, 9, 9, 255, 0, 0, 255, 255,
    ]);
    const ppm = rgbaToPpm(rgba, 3, 2);
    const head = header(ppm);
    expect(head.text).toBe('P6\n3 2\n255\n');
    expect([...ppm.subarray(head.length)]).toEqual([255, 0, 0, 1, 2, 3, 0, 0, 0, 10, 200, 30, 9, 9, 9, 0, 0, 255]);
  });

  it('composites premultiplied transparent pixels over white', () => {
    // a fully transparent pixel, and blue at half alpha as @napi-rs/canvas stores it (premultiplied)
    const ppm = rgbaToPpm(new Uint8Array([0, 0, 0, 0, 0, 0, 127, 127]), 2, 1);
    expect([...ppm.subarray(header(ppm).length)]).toEqual([255, 255, 255, 128, 128, 255]);
  });

  it('gives the pixels of a canvas drawing exactly, as the PNG of the same canvas holds them', () => {
    const canvas = createCanvas(40, 12);
    const context = canvas.getContext('2d');
    context.fillStyle = 'white';
    context.fillRect(0, 0, 40, 12);
    context.fillStyle = 'rgb(200, 30, 90)';
    context.font = '10px sans-serif';
    context.fillText('Ab 9', 2, 10);
    const ppm = rgbaToPpm(canvas.data(), 40, 12);
    const expected = context.getImageData(0, 0, 40, 12).data;
    const body = ppm.subarray(header(ppm).length);
    for (let p = 0; p < 40 * 12; p++) {
      expect([body[p * 3], body[p * 3 + 1], body[p * 3 + 2]]).toEqual([
        expected[p * 4],
        expected[p * 4 + 1],
        expected[p * 4 + 2],
      ]);
    }
  });

  it('has the size the header announces for any image, and keeps opaque pixels', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.uint8Array({ minLength: 324, maxLength: 324 }),
        (width, height, bytes) => {
          const rgba = bytes.slice(0, width * height * 4);
          for (let i = 3; i < rgba.length; i += 8) rgba[i] = 255; // every other pixel opaque
          const ppm = rgbaToPpm(rgba, width, height);
          const head = header(ppm);
          expect(head.text).toBe(`P6\n${width} ${height}\n255\n`);
          expect(ppm.length).toBe(head.length + width * height * 3);
          for (let p = 0; p < width * height; p += 2)
            expect([...ppm.subarray(head.length + p * 3, head.length + p * 3 + 3)]).toEqual([
              ...rgba.subarray(p * 4, p * 4 + 3),
            ]);
        },
      ),
    );
  });

  it('refuses sizes the buffer cannot hold', () => {
    expect(() => rgbaToPpm(new Uint8Array(15), 2, 2)).toThrow(RangeError);
    expect(() => rgbaToPpm(new Uint8Array(16), 0, 4)).toThrow(RangeError);
    expect(() => rgbaToPpm(new Uint8Array(16), 1.5, 2)).toThrow(RangeError);
  });
});
