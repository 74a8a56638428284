import { describe, expect, it } from 'vitest';
import { LocalBinaryData } from './pdfjs-options';

describe('LocalBinaryData (pdf.js CMaps and standard fonts from the installed package)', () => {
  const data = new LocalBinaryData();

  it('reads a packed CJK CMap and a standard font', async () => {
    expect((await data.fetch({ kind: 'cMapUrl', filename: 'GBK-EUC-H.bcmap' })).byteLength).toBeGreaterThan(1000);
    expect((await data.fetch({ kind: 'standardFontDataUrl', filename: 'FoxitSerif.pfb' })).byteLength).toBeGreaterThan(
      1000,
    );
  });

  it('refuses names that leave its folders and kinds it does not serve', async () => {
    await expect(data.fetch({ kind: 'cMapUrl', filename: '../package.json' })).rejects.toThrow(/outside/);
    await expect(data.fetch({ kind: 'cMapUrl', filename: '/etc/passwd' })).rejects.toThrow(/outside/);
    await expect(data.fetch({ kind: 'wasmUrl', filename: 'openjpeg.wasm' })).rejects.toThrow(/not installed/);
  });
});
