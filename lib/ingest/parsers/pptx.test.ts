import { describe, expect, it } from 'vitest';
import { buildZip } from '@/test/support/ingest/test-zip';
import { parsePptx } from './pptx';

const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function shape(type: string | null, ...paragraphs: string[]): string {
  const ph = type ? `<p:nvSpPr><p:nvPr><p:ph type="${type}"/></p:nvPr></p:nvSpPr>` : '';
  const body = paragraphs.map((t) => `<a:p><a:r><a:t>${t}</a:t></a:r></a:p>`).join('');
  return `<p:sp>${ph}<p:txBody>${body}</p:txBody></p:sp>`;
}

function table(rows: string[][]): string {
  const tr = rows
    .map(
      (cells) =>
        `<a:tr>${cells.map((c) => `<a:tc><a:txBody><a:p><a:r><a:t>${c}</a:t></a:r></a:p></a:txBody></a:tc>`).join('')}</a:tr>`,
    )
    .join('');
  return `<p:graphicFrame><a:graphic><a:graphicData><a:tbl>${tr}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
}

function presentation(slides: { body: string; notes?: string }[], order?: number[]): Uint8Array {
  const ids = (order ?? slides.map((_, i) => i + 1))
    .map((n, i) => `<p:sldId id="${256 + i}" r:id="rId${n}"/>`)
    .join('');
  const entries = [
    { name: '[Content_Types].xml', data: '<Types/>' },
    { name: 'ppt/presentation.xml', data: `<p:presentation ${NS}><p:sldIdLst>${ids}</p:sldIdLst></p:presentation>` },
    {
      name: 'ppt/_rels/presentation.xml.rels',
      data: `<Relationships>${slides.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/slide" Target="slides/slide${i + 1}.xml"/>`).join('')}</Relationships>`,
    },
  ];
  slides.forEach((slide, i) => {
    entries.push({
      name: `ppt/slides/slide${i + 1}.xml`,
      data: `<p:sld ${NS}><p:cSld><p:spTree>${slide.body}</p:spTree></p:cSld></p:sld>`,
    });
    if (slide.notes) {
      entries.push({
        name: `ppt/slides/_rels/slide${i + 1}.xml.rels`,
        data: `<Relationships><Relationship Id="rId9" Type="${REL}/notesSlide" Target="../notesSlides/notesSlide${i + 1}.xml"/></Relationships>`,
      });
      entries.push({
        name: `ppt/notesSlides/notesSlide${i + 1}.xml`,
        data: `<p:notes ${NS}><p:cSld><p:spTree>${shape('sldImg')}${shape('body', slide.notes)}${shape('sldNum', String(i + 1))}</p:spTree></p:cSld></p:notes>`,
      });
    }
  });
  return buildZip(entries);
}

describe('parsePptx', () => {
  it('gives one unit per slide in presentation order, with the title, tables and speaker notes', async () => {
    const bytes = presentation(
      [
        {
          body:
            shape('title', 'Quarterly results') +
            shape(null, 'Revenue grew', 'Costs fell') +
            table([
              ['Region', 'Sales'],
              ['North', '12'],
            ]),
          notes: 'Mention the new office.',
        },
        { body: shape('ctrTitle', 'Welcome') },
      ],
      [2, 1],
    );
    const parsed = await parsePptx(bytes);
    expect(parsed.kind).toBe('pptx');
    expect(parsed.pageCount).toBe(2);
    expect(parsed.units.map((u) => [u.page, u.headingPath])).toEqual([
      [1, ['Welcome']],
      [2, ['Quarterly results']],
    ]);
    expect(parsed.units[1]?.text).toBe(
      'Quarterly results\n\nRevenue grew\nCosts fell\n\nRegion | Sales\nNorth | 12\n\nSpeaker notes:\nMention the new office.',
    );
  });

  it('refuses a package without slides as malformed and a DTD as entity expansion', async () => {
    await expect(
      parsePptx(buildZip([{ name: 'ppt/presentation.xml', data: '<p:presentation/>' }])),
    ).rejects.toMatchObject({
      code: 'malformed',
    });
    const withDtd = buildZip([
      { name: 'ppt/presentation.xml', data: '<!DOCTYPE x [<!ENTITY a "aaaa">]><p:presentation/>' },
      { name: 'ppt/slides/slide1.xml', data: `<p:sld ${NS}>&a;</p:sld>` },
    ]);
    await expect(parsePptx(withDtd)).rejects.toMatchObject({ code: 'xml-entities' });
  });

  it('reads text in deeply nested groups without overflowing the stack', async () => {
    const deep = `${'<p:grpSp>'.repeat(5000)}${shape(null, 'deep text')}${'</p:grpSp>'.repeat(5000)}`;
    const parsed = await parsePptx(presentation([{ body: deep }]));
    expect(parsed.units[0]?.text).toContain('deep text');
  });
});
