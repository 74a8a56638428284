/**
 * Writes small valid PDF files with real text pages (Helvetica, one text line per string), by hand-rolled PDF
 * syntax with a correct xref table. Used by the tests and the ingestion benchmark to make PDFs without a network.
 */

function escapePdfString(text: string): string {
  // Standard 14 fonts take WinAnsi bytes: keep printable ASCII, replace the rest.
  return text.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);
}

/**
 * A PDF whose page i shows the lines of `pages[i]` from the top, 14 pt apart (about 50 lines fit a page).
 * `title` goes into the document information dictionary.
 */
export function buildTextPdf(pages: readonly (readonly string[])[], options: { title?: string } = {}): Uint8Array {
  const objects: string[] = [];
  // 1: catalog, 2: pages, 3: font, 4: info, then per page: page object, content stream.
  const pageIds = pages.map((_, i) => 5 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = `<< /Producer (docuchat minimal-pdf)${options.title ? ` /Title (${escapePdfString(options.title)})` : ''} >>`;
  pages.forEach((lines, i) => {
    const pageId = 5 + i * 2;
    const contentId = pageId + 1;
    const ops = ['BT', '/F1 10 Tf', '14 TL', '50 760 Td'];
    for (const line of lines) ops.push(`(${escapePdfString(line)}) Tj T*`);
    ops.push('ET');
    const stream = ops.join('\n');
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R >>`;
    objects[contentId] = `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  });
  return assemble(objects, ' /Info 4 0 R');
}

/** A string drawn at a point: `angle` turns the text counter-clockwise (degrees, multiples of 90). */
export interface PlacedText {
  text: string;
  x: number;
  y: number;
  size?: number;
  angle?: 0 | 90 | 180 | 270;
}

/**
 * A PDF whose pages draw each string at its own place, in the order given (the content-stream order pdf.js reports),
 * so tests can make columns, tables and turned text whose stream order differs from their reading order. `rotate`
 * sets the page's /Rotate; `drawing` is raw content-stream operators (paths) drawn after the text.
 */
export function buildPlacedTextPdf(
  pages: readonly {
    texts: readonly PlacedText[];
    width?: number;
    height?: number;
    rotate?: number;
    drawing?: string;
  }[],
): Uint8Array {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  pages.forEach((page, i) => {
    const pageId = 4 + i * 2;
    const contentId = pageId + 1;
    const ops: string[] = [];
    for (const t of page.texts) {
      const turn = ((t.angle ?? 0) / 90) % 4;
      const cos = [1, 0, -1, 0][turn] ?? 1;
      const sin = [0, 1, 0, -1][turn] ?? 0;
      ops.push(
        `BT /F1 ${t.size ?? 10} Tf ${cos} ${sin} ${-sin} ${cos} ${t.x} ${t.y} Tm (${escapePdfString(t.text)}) Tj ET`,
      );
    }
    if (page.drawing) ops.push(page.drawing);
    const stream = ops.join('\n');
    const rotate = page.rotate ? ` /Rotate ${page.rotate}` : '';
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${page.width ?? 612} ${page.height ?? 792}]${rotate} /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R >>`;
    objects[contentId] = `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  });
  return assemble(objects, '');
}

function assemble(objects: string[], trailerExtra: string): Uint8Array {
  const parts: string[] = ['%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n'];
  let offset = Buffer.byteLength(parts[0] ?? '', 'latin1');
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    const body = `${id} 0 obj\n${objects[id] ?? 'null'}\nendobj\n`;
    offsets[id] = offset;
    parts.push(body);
    offset += Buffer.byteLength(body, 'latin1');
  }
  const xref = [`xref\n0 ${objects.length}\n`, '0000000000 65535 f \n'];
  for (let id = 1; id < objects.length; id++) xref.push(`${String(offsets[id] ?? 0).padStart(10, '0')} 00000 n \n`);
  parts.push(xref.join(''));
  parts.push(`trailer\n<< /Size ${objects.length} /Root 1 0 R${trailerExtra} >>\nstartxref\n${offset}\n%%EOF\n`);
  return new Uint8Array(Buffer.from(parts.join(''), 'latin1'));
}
