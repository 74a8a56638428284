import { describe, expect, it } from 'vitest';
import { buildZip } from '@/test/support/ingest/test-zip';
import { parseEpub } from './epub';
import { parseOdf } from './odf';

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"';

function odf(flavour: string, body: string): Uint8Array {
  return buildZip([
    { name: 'mimetype', data: `application/vnd.oasis.opendocument.${flavour}`, store: true },
    {
      name: 'content.xml',
      data: `<office:document-content ${ODF_NS}><office:body>${body}</office:body></office:document-content>`,
    },
    {
      name: 'meta.xml',
      data: '<office:document-meta xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>My doc</dc:title></office:document-meta>',
    },
  ]);
}

describe('parseOdf', () => {
  it('turns ODT headings into sections, keeps spaces, line breaks and tables', async () => {
    const parsed = await parseOdf(
      odf(
        'text',
        '<office:text><text:p>Intro<text:s text:c="2"/>text</text:p><text:h text:outline-level="1">Part A</text:h>' +
          '<text:p>One<text:line-break/>two</text:p><text:h text:outline-level="2">Sub</text:h>' +
          '<table:table><table:table-row><table:table-cell><text:p>k</text:p></table:table-cell><table:table-cell><text:p>v</text:p></table:table-cell></table:table-row></table:table>' +
          '</office:text>',
      ),
      'odt',
    );
    expect(parsed.title).toBe('My doc');
    expect(parsed.units.map((u) => [u.headingPath, u.text])).toEqual([
      [[], 'Intro text'],
      [['Part A'], 'Part A\n\nOne\ntwo'],
      [['Part A', 'Sub'], 'Sub\n\nk | v'],
    ]);
  });

  it('gives ODP slides as pages with their notes', async () => {
    const parsed = await parseOdf(
      odf(
        'presentation',
        '<office:presentation><draw:page draw:name="Intro"><draw:frame><draw:text-box><text:p>Hello slide</text:p></draw:text-box></draw:frame>' +
          '<presentation:notes><draw:frame><draw:text-box><text:p>Say hi</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>' +
          '<draw:page draw:name="page2"><draw:frame><draw:text-box><text:p>Second</text:p></draw:text-box></draw:frame></draw:page></office:presentation>',
      ),
      'odp',
    );
    expect(parsed.units.map((u) => [u.page, u.headingPath, u.text])).toEqual([
      [1, ['Intro'], 'Hello slide\n\nSpeaker notes:\nSay hi'],
      [2, [], 'Second'],
    ]);
  });

  it('refuses a content.xml that declares entities', async () => {
    const bytes = buildZip([
      { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text' },
      { name: 'content.xml', data: '<!DOCTYPE x [<!ENTITY a "b">]><office:document-content/>' },
    ]);
    await expect(parseOdf(bytes, 'odt')).rejects.toMatchObject({ code: 'xml-entities' });
  });
});

describe('parseEpub', () => {
  it('reads chapters in spine order as heading sections', async () => {
    const bytes = buildZip([
      { name: 'mimetype', data: 'application/epub+zip', store: true },
      {
        name: 'META-INF/container.xml',
        data: '<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>',
      },
      {
        name: 'OEBPS/content.opf',
        data:
          '<package xmlns:dc="http://purl.org/dc/elements/1.1/"><metadata><dc:title>The Book</dc:title></metadata><manifest>' +
          '<item id="c1" href="ch%201.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="text/ch2.xhtml" media-type="application/xhtml+xml"/>' +
          '</manifest><spine><itemref idref="c2"/><itemref idref="c1"/></spine></package>',
      },
      {
        name: 'OEBPS/ch 1.xhtml',
        data: '<html><body><h1>Chapter One</h1><p>First words.</p><script>evil()</script></body></html>',
      },
      {
        name: 'OEBPS/text/ch2.xhtml',
        data: '<!DOCTYPE html><html><body><h1>Prologue</h1><p>Before.</p></body></html>',
      },
    ]);
    const parsed = await parseEpub(bytes);
    expect(parsed.title).toBe('The Book');
    expect(parsed.units.map((u) => [u.headingPath, u.text])).toEqual([
      [['Prologue'], 'Prologue\n\nBefore.'],
      [['Chapter One'], 'Chapter One\n\nFirst words.'],
    ]);
  });
});
