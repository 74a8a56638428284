/**
 * Binary PPM (P6): the uncompressed RGB image format Leptonica reads with no decoding work. A page rendered for OCR
 * goes to Tesseract this way instead of as PNG: the PNG encode (zlib over ~6 MB of pixels, ~0.1-0.2 CPU-s a page
 * at 200 dpi) bought nothing, since Tesseract decoded it straight back into the same pixels
 * (docs/benchmarks-ingest.md, "fifth pass").
 */

/**
 * P6 bytes of a premultiplied RGBA pixel buffer (as @napi-rs/canvas's `canvas.data()` gives it), composited over
 * white: an opaque pixel keeps its exact colour (what PNG kept), a transparent one turns white as on paper.
 */
export function rgbaToPpm(premultipliedRgba: Uint8Array, width: number, height: number): Uint8Array {
  const pixels = width * height;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
    throw new RangeError(`invalid image size ${width}x${height}`);
  if (premultipliedRgba.length < pixels * 4)
    throw new RangeError(`${premultipliedRgba.length} bytes cannot hold ${width}x${height} RGBA pixels`);
  const header = new TextEncoder().encode(`P6\n${width} ${height}\n255\n`);
  const out = new Uint8Array(header.length + pixels * 3);
  out.set(header, 0);
  let o = header.length;
  for (let i = 0; i < pixels * 4; i += 4) {
    const white = 255 - (premultipliedRgba[i + 3] ?? 255);
    out[o] = (premultipliedRgba[i] ?? 0) + white;
    out[o + 1] = (premultipliedRgba[i + 1] ?? 0) + white;
    out[o + 2] = (premultipliedRgba[i + 2] ?? 0) + white;
    o += 3;
  }
  return out;
}
