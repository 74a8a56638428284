import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '@/lib/retrieval/analyzer';
import { makeChunk, makeDocument } from '../../test/support/agent/fixtures';
import { stateWith } from '../../test/support/agent/state';
import { extractiveAnswer } from './extractive';
import { tableRowToOpen } from './policy-extractive';
import { registerHit } from './state';
import {
  answersFromTable,
  bestTableRow,
  captionAbove,
  isDataRow,
  isIdentifierCell,
  isValueCell,
  labelIndex,
  monthsNamed,
  namesOtherPeriod,
  onlyValue,
  recordRows,
  tableRows,
  transposedRows,
} from './table-answer';
import { validateDraft } from './validate';

const SHEET = [
  'Revenue and results',
  'In millions of CHF |  |  | January–June 2023',
  ' | Sales | Trading operating profit | Restructuring costs',
  'Zone NA | 12553 | 2632 | -44',
  'Zone EUR | 9467 | 1373 | -140',
  'Total | 45580 | 6684 | -87',
].join('\n');

function chunkOf(text: string, filename = 'segments.xlsx', sheet: string | null = 'Segments') {
  const doc = makeDocument({ filename, mime: 'application/vnd.ms-excel' });
  return makeChunk(doc, 0, text, { sheet });
}

const sheetChunk = () => chunkOf(SHEET);

/** The extractive answer to `question` over the given chunks, opened as [1], [2]… */
function answer(question: string, ...chunks: ReturnType<typeof chunkOf>[]) {
  const state = stateWith({ question, opened: chunks });
  return { state, ex: extractiveAnswer(state, 'concise') };
}

const declines = (text: string) => !/\[\d+\]/.test(text) && text.includes('Insufficient documentation');

describe('tableRows', () => {
  it('separates header lines from data rows', () => {
    const rows = tableRows(SHEET);
    expect(rows.map((r) => r.row.cells[0])).toEqual(['Zone NA', 'Zone EUR', 'Total']);
    expect(rows[0]?.headers.map((h) => h.cells[1])).toEqual(['', 'Sales']);
  });
  it('a header row is not a data row', () => {
    expect(isDataRow(['', 'Sales', 'Profit'])).toBe(false);
    expect(isDataRow(['Item', 'Price', '# In stock'])).toBe(false);
    expect(isDataRow(['Bananas', '1.89', '6'])).toBe(true);
  });
  it('reads Markdown tables with a separator line', () => {
    const rows = tableRows('Item | Price\n---|---\nJuicy Apples | 1.99\nBananas | 1.89');
    expect(rows.map((r) => r.row.cells[0])).toEqual(['Juicy Apples', 'Bananas']);
    expect(rows[0]?.headers[0]?.cells).toEqual(['Item', 'Price']);
  });
  it('a caption line between two tables ends the first table header', () => {
    const rows = tableRows('A | B\n1.5 | 2.5\n\nProperties of K-7\n\nKind | Weight\nRod | 40');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.headers.map((h) => h.text)).toEqual(['Kind | Weight']);
  });
  it('values: numbers, ranges of one magnitude, bounds and dashes; not identifiers', () => {
    for (const v of ['12', '-140', '1,234.5', '0.75 - 1.2', '293-375', 'max 0.025', '≤ 5', '45%', '—', '(12)'])
      expect(isValueCell(v), v).toBe(true);
    for (const v of ['20-8143439', 'Nine quarters to 30 June 2023', 'FY 23/24', 'Q1 2024', 'TOR', ''])
      expect(isValueCell(v), v).toBe(false);
  });
  it('values with their currency symbol or unit, as a spec sheet or price list writes them; words keep a text cell', () => {
    for (const v of [
      '$2,899',
      '€ 40',
      '1.2 kg',
      '38 min',
      '68 km/h',
      '5,000 mAh',
      '230 °C',
      '2.1 mg/L',
      '$10 - $20',
      '-10 to 40 °C',
    ])
      expect(isValueCell(v), v).toBe(true);
    for (const v of ['12 months notice', '2 sprigs fresh rosemary', 'Lab 2', 'Studio 1', '1 teaspoon', 'B12'])
      expect(isValueCell(v), v).toBe(false);
  });
});

describe('table answers', () => {
  it('answers from the matching row and column, quoting the row, never the header alone', () => {
    const chunk = sheetChunk();
    const state = stateWith({
      question: 'What were Zone EUR restructuring costs in January–June 2023?',
      opened: [chunk],
    });
    const hit = bestTableRow(state.opened, { terms: ['zone', 'eur', 'restructur', 'cost'], weight: () => 1 });
    expect(hit?.label).toBe('Zone EUR');
    expect(hit?.value).toBe('-140');
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('-140');
    expect(ex.answer).toContain('"Zone EUR | 9467 | 1373 | -140" [1]');
    expect(ex.answer).toContain('sheet Segments');
    expect(ex.answer).not.toMatch(/"\s*\|\s*Sales/);
    expect(validateDraft(ex.answer, state, { skipProcess: true }).passed).toBe(true);
  });

  it('a spec sheet written with units reads the asked row under the model named by its column', () => {
    const text = [
      'Specifications',
      '',
      'Parameter | Kestrel X4 | Kestrel X4 Pro',
      'Takeoff weight | 1.2 kg | 1.45 kg',
      'Maximum flight time | 38 min | 46 min',
      'Operating temperature | -10 to 40 °C | -20 to 45 °C',
      'Price | $2,899 | $3,799',
    ].join('\n');
    expect(tableRows(text).map((r) => r.headers.map((h) => h.cells[0]))).toEqual([
      ['Parameter'],
      ['Parameter'],
      ['Parameter'],
      ['Parameter'],
    ]);
    const chunk = chunkOf(text, 'kestrel-x4-spec.html', null);
    const price = answer('What is the price of the Kestrel X4?', chunk).ex.answer;
    expect(price).toMatch(/^Price, Kestrel X4: \$2,899 \[1\]/);
    const time = answer('What is the maximum flight time of the Kestrel X4 Pro?', chunk).ex.answer;
    expect(time).toMatch(/^Maximum flight time, Kestrel X4 Pro: 46 min \[1\]/);
    expect(declines(answer('What is the maximum altitude of the Kestrel X4?', chunk).ex.answer)).toBe(true);
  });

  it('a row the table does not hold is declined, not answered from another row', () => {
    const { ex } = answer('What were Zone LATAM sales in January–June 2021?', sheetChunk());
    expect(ex.answer).not.toMatch(/\[\d+\]/);
    expect(ex.answer).toContain('Insufficient documentation');
  });

  it('the period in a spanning header does not choose the column: the attribute does', () => {
    const { ex } = answer('What were Zone NA sales in January–June 2023?', sheetChunk());
    expect(ex.answer).toMatch(/^Zone NA, January–June 2023 Sales: 12553 \[1\]/);
  });

  it('of two headers saying the attribute, the one saying least else wins', () => {
    const text = [
      'Brand | Sales | Adjusted operating margin | Operating margin',
      'Pinewood | 800 | 14.2 | 11.9',
      'Lakeside | 640 | 9.1 | 8.4',
    ].join('\n');
    const { ex } = answer('What was the operating margin of Lakeside?', chunkOf(text));
    expect(ex.answer).toMatch(/Operating margin: 8\.4 \[1\]/);
  });

  it('of two row labels naming the asked line item, the one saying least else wins', () => {
    const text = [
      'In thousands | Q1 2024 | Q1 2023',
      'Adjusted gross margin before one-off items | 410 | 380',
      'Gross margin | 395 | 371',
    ].join('\n');
    const { ex } = answer('What was the gross margin for Q1 2024?', chunkOf(text, 'quarter.xlsx', 'Bridge'));
    expect(ex.answer).toMatch(/^Gross margin, Q1 2024: 395 \[1\]/);
  });

  it('declines when no column header says the asked attribute (no neighbouring column)', () => {
    const cities = ['City | Population | Area (km2)', 'Ashford | 74204 | 58', 'Brayton | 19310 | 21'].join('\n');
    const { ex } = answer('What is the elevation of Ashford?', chunkOf(cities, 'towns.csv', 'towns'));
    expect(declines(ex.answer)).toBe(true);
  });

  it('declines when the header says only part of a longer attribute (impact strength vs tensile strength)', () => {
    const text = [
      'Mechanical properties of alloy QX-9',
      '',
      'Form | Tensile strength | Elongation',
      'Rods | 720 | 14',
    ].join('\n');
    const { ex } = answer('What is the fatigue impact strength of QX-9 rods?', chunkOf(text, 'qx9.html', null));
    expect(declines(ex.answer)).toBe(true);
    const ok = answer('What is the tensile strength of QX-9 rods?', chunkOf(text, 'qx9.html', null)).ex;
    expect(ok.answer).toMatch(/Tensile strength: 720 \[1\]/);
  });

  it('a year question is not answered by a count in the matching row', () => {
    const text = ['League titles', 'Club | City | Titles', 'Otters | Hull | 7', 'Herons | Leeds | 3'].join('\n');
    const { ex } = answer('In which year did the Otters win their last title?', chunkOf(text, 'titles.csv', 'titles'));
    expect(declines(ex.answer)).toBe(true);
    const count = answer('How many titles have the Otters won?', chunkOf(text, 'titles.csv', 'titles')).ex;
    expect(count.answer).toMatch(/Otters, Titles: 7 \[1\]/);
  });

  it('finds a row by a code in another cell and answers from the label column', () => {
    const text = ['Club | City | Titles', 'Otters | HUL | 7', 'Herons | LDS | 3'].join('\n');
    const { ex } = answer('Which club has the city code LDS?', chunkOf(text, 'titles.csv', 'titles'));
    expect(ex.answer).toMatch(/LDS, Club: Herons \[1\]/);
  });

  it('reads a spanning header per column group (separator columns), so the asked year picks its group', () => {
    const text = [
      'In units | | 2021 | | | 2022',
      ' | Imports | Exports | | Imports | Exports',
      'Northland | 10 | 12 | | 31 | 33',
      'Southmark | 20 | 22 | | 41 | 43',
    ].join('\n');
    const { ex } = answer('What were the exports of Southmark in 2022?', chunkOf(text, 'trade.xlsx', 'Trade'));
    expect(ex.answer).toMatch(/Southmark, 2022 Exports: 43 \[1\]/);
    const earlier = answer('What were the exports of Southmark in 2021?', chunkOf(text, 'trade.xlsx', 'Trade')).ex;
    expect(earlier.answer).toMatch(/Southmark, 2021 Exports: 22 \[1\]/);
  });

  it('a year the question asks must be the row table’s, not another table’s of the same chunk', () => {
    const text = ['Year 2024 | | Sales', 'Northland | | 50', 'Summary', 'Year 2025 | | Staff', 'Eastvale | | 9'].join(
      '\n',
    );
    const { ex } = answer('What were Northland sales in 2025?', chunkOf(text, 'book.xlsx', 'Book'));
    expect(declines(ex.answer)).toBe(true);
  });

  it('the table’s own period label decides, not a sheet name naming another year', () => {
    const lastYear = ['In units |  | Jan–Jun 2021', ' | Imports | Exports', 'Southmark | 20 | 22'].join('\n');
    // The sheet is named for 2022, the table's caption says 2021: a 2022 question is not answered from it.
    const chunk = chunkOf(lastYear, 'trade-2022.xlsx', 'Trade 30 06 2022');
    expect(declines(answer('What were the exports of Southmark in 2022?', chunk).ex.answer)).toBe(true);
    expect(answer('What were the exports of Southmark in 2021?', chunk).ex.answer).toMatch(/Exports: 22 \[1\]/);
    // Must not fire: a question naming no year, or a table whose header names no year (the sheet name then counts).
    expect(answer('What were the exports of Southmark?', chunk).ex.answer).toMatch(/Exports: 22 \[1\]/);
    const noPeriod = chunkOf(
      ['In units | | ', ' | Imports | Exports', 'Southmark | 20 | 22'].join('\n'),
      'a.xlsx',
      'Trade 2022',
    );
    expect(answer('What were the exports of Southmark in 2022?', noPeriod).ex.answer).toMatch(/Exports: 22 \[1\]/);
  });

  it('of two stacked tables for two years, the row under the asked year’s caption answers', () => {
    const table = (year: number, exports: number) =>
      [`In units |  | Jan–Jun ${year}`, ' | Imports | Exports', `Southmark | 20 | ${exports}`].join('\n');
    const older = chunkOf(table(2021, 22), 'trade.xlsx', 'Trade 30 06 2022');
    const newer = chunkOf(table(2022, 43), 'trade.xlsx', 'Trade 30 06 2022');
    expect(answer('What were the exports of Southmark in 2022?', older, newer).ex.answer).toMatch(/Exports: 43 \[2\]/);
    expect(answer('What were the exports of Southmark in 2021?', older, newer).ex.answer).toMatch(/Exports: 22 \[1\]/);
  });

  it('namesOtherPeriod: only a label naming years and none of the asked ones excludes', () => {
    expect(namesOtherPeriod(new Set(['jan', '2022']), ['2023'])).toBe(true);
    expect(namesOtherPeriod(new Set(['2022', '2023']), ['2023'])).toBe(false);
    expect(namesOtherPeriod(new Set(['sales']), ['2023'])).toBe(false);
    expect(namesOtherPeriod(new Set(['2022']), [])).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: 1950, max: 2099 }), fc.integer({ min: 1950, max: 2099 }), (a, b) => {
        expect(namesOtherPeriod(new Set([String(a)]), [String(b)])).toBe(a !== b);
      }),
    );
  });

  it('reads a transposed table: a text row ("Capital | …") under the line naming the entities across', () => {
    const text = [
      ' | Northland | Southmark | Eastvale',
      'Capital | Arden | Bexley | Crawley',
      'Currency | Crown | Mark | —',
      'Population | 120,000 | 98,000 | 77,000',
    ].join('\n');
    const chunk = chunkOf(text, 'countries.pdf', 'Table 1');
    expect(answer('What is the capital of Southmark?', chunk).ex.answer).toMatch(/Capital, Southmark: Bexley \[1\]/);
    expect(answer('What is the population of Eastvale?', chunk).ex.answer).toMatch(
      /Population, Eastvale[^:]*: 77,000 \[1\]/,
    );
    // Must not fire: an attribute no row names, or an entity no column names.
    expect(declines(answer('What is the anthem of Southmark?', chunk).ex.answer)).toBe(true);
    expect(declines(answer('What is the capital of Westholm?', chunk).ex.answer)).toBe(true);
  });

  it('transposedRows: only labelled text lines under the first header line; a spanning line’s continuation is not', () => {
    const rows = tableRows(['In units | | 2021', ' | Imports | Exports', 'Northland | 10 | 12'].join('\n'));
    expect(transposedRows(rows)).toEqual([]);
    const across = tableRows([' | A | B', 'Kind | rod | bar', 'Weight | 4 | 5'].join('\n'));
    expect(transposedRows(across).map((r) => r.row.cells[0])).toEqual(['Kind']);
    expect(transposedRows(across)[0]?.headers.map((h) => h.text)).toEqual(['| A | B']);
  });

  it('a Totals column answers what the caption says the table counts; not when the caption does not say it', () => {
    const text = [' | Handgun | Long Gun | Totals', 'Northland | 120 | 80 | 200', 'Southmark | 30 | 15 | 45'].join(
      '\n',
    );
    const chunk = chunkOf(text, 'permit-checks-2015-11.pdf', 'Table 1');
    expect(answer('How many permit checks did Southmark have in November 2015?', chunk).ex.answer).toMatch(
      /Southmark, Totals: 45 \[1\]/,
    );
    // Must not fire: a caption not saying the asked attribute, or a month the caption's period does not name.
    const other = chunkOf(text, 'stock-2015-11.pdf', 'Table 1');
    expect(declines(answer('How many permit checks did Southmark have in November 2015?', other).ex.answer)).toBe(true);
    expect(declines(answer('How many permit checks did Southmark have in December 2015?', chunk).ex.answer)).toBe(true);
  });

  it('monthsNamed: month names and year-month codes; "may" the verb is no month', () => {
    expect([...monthsNamed('checks-2015-11.pdf', true)]).toEqual([11]);
    expect([...monthsNamed('checks-2015-11.pdf', false)]).toEqual([]);
    expect([...monthsNamed('January–June 2023', false)].sort((a, b) => a - b)).toEqual([1, 6]);
    expect([...monthsNamed('What may Sales be in May?', false)]).toEqual([5]);
    expect([...monthsNamed('30 06 2023 and 20-8143439', true)]).toEqual([]);
  });

  it('an index row whose columns do not say the asked attribute is not quoted as a sentence either', () => {
    const text = [
      'Contents of the quarterly pack',
      'Topic | Period | Page',
      'Customer churn | Nine quarters to June 2024 | 11',
      'Average exchange rates | Nine quarters to June 2024 | 14',
    ].join('\n');
    const { ex } = answer('What was the customer churn rate in the quarter to June 2024?', chunkOf(text, 'pack.xlsx'));
    expect(declines(ex.answer)).toBe(true);
    const page = answer('On which page is customer churn reported?', chunkOf(text, 'pack.xlsx')).ex;
    expect(page.answer).toMatch(/Customer churn, Page: 11 \[1\]/);
  });

  it('a range cell answers a range question', () => {
    const text = ['Hardness of grade K-7', '', '- | Brinell HB | Vickers HV', 'K-7 | 210-250'].join('\n');
    const { ex } = answer('What Brinell hardness range does K-7 have?', chunkOf(text, 'k7.html', null));
    expect(ex.answer).toMatch(/K-7, Brinell HB: 210-250 \[1\]/);
  });

  describe('a listing without header lines (name | title | amount)', () => {
    const PAYROLL = [
      'BAIN, J MATTHEW | DISTRICT DIRECTOR | 37,499.96',
      'SMITH, ALVARO R | LEGISLATIVE CORRESPONDENT | 21,000.00',
      'CAMPBELL, CLAYTON D | DISTRICT DIRECTOR FROM MAY 23 | 31,111.08',
    ].join('\n');
    const ask = (question: string, text = PAYROLL) => answer(question, chunkOf(text, 'expenditures.pdf', 'Table 1')).ex;
    it('answers from the row naming the entity when its other cells say the asked attribute', () => {
      const ex = ask('How much was paid to J Matthew Bain as district director?');
      expect(ex.answer).toContain('37,499.96');
      expect(ex.answer).toContain('[1]');
    });
    it('must not fire when the row says another attribute than the asked one', () => {
      expect(declines(ask('How much was paid to Alvaro Smith as district director?').answer)).toBe(true);
      expect(declines(ask('How much was paid to J Matthew Bain in overtime bonuses?').answer)).toBe(true);
    });
    it('must not fire when the row holds two values (which one is asked is unsaid)', () => {
      const two = 'BAIN, J MATTHEW | DISTRICT DIRECTOR | 37,499.96 | 4,100.00';
      expect(declines(ask('How much was paid to J Matthew Bain as district director?', two).answer)).toBe(true);
    });
    it('must not fire under a header line that says another attribute', () => {
      const headed = `Name | Position | Mileage\n${PAYROLL}`;
      expect(declines(ask('How much was paid to J Matthew Bain as district director?', headed).answer)).toBe(true);
    });
    it("onlyValue (property): one value cell besides the key is the row's value; two are none", () => {
      fc.assert(
        fc.property(
          fc.array(fc.integer({ min: 1, max: 999999 }), { minLength: 1, maxLength: 3 }),
          fc.constantFrom('STAFF ASSISTANT', 'DISTRICT DIRECTOR', 'INTERN'),
          (amounts, title) => {
            const cells = ['DOE, JANE', title, ...amounts.map((a) => (a / 100).toFixed(2))];
            const row = { text: cells.join(' | '), start: 0, end: 0, cells };
            const hit = onlyValue(row, 0, analyze(title), { terms: analyze(title), weight: () => 1 }, (h, t) =>
              h.has(t),
            );
            if (amounts.length === 1) expect(hit).toMatchObject({ index: 2, said: 1 });
            else expect(hit).toBeNull();
          },
        ),
        { numRuns: 60 },
      );
    });
  });

  describe('a one-record table (a form laid out as a header line and one line of cells)', () => {
    const COVER = [
      'Galaxy Gaming, Inc.',
      '',
      'Securities registered under Section 12(b) of the Act:',
      '',
      'Title of each class |  | Trading symbol |  | Name of exchange on which registered',
      'Common stock |  | GLXZ |  | OTCQB marketplace',
      '',
      'Indicate by check mark if the registrant is a well-known seasoned issuer.',
    ].join('\n');
    const ask = (question: string, text = COVER) => answer(question, chunkOf(text, '10k.html', null)).ex;
    it('answers for the entity the chunk names, from the column saying the attribute', () => {
      const ex = ask('What is Galaxy Gaming’s trading symbol?');
      expect(ex.answer).toContain('GLXZ');
      expect(ex.answer).toContain('[1]');
    });
    it('must not fire for an entity the chunk does not name, nor without a name in the question', () => {
      expect(declines(ask('What is Globex Corporation’s trading symbol?').answer)).toBe(true);
      expect(
        bestTableRow([{ chunk: { text: COVER, sheet: null, title: null, filename: '10k.html' } }], {
          terms: analyze('trading symbol'),
          weight: () => 1,
          specific: new Set(),
        }),
      ).toBeNull();
    });
    it('must not fire when no column says the attribute', () => {
      expect(declines(ask('Who is the chief executive officer of Galaxy Gaming?').answer)).toBe(true);
    });
    it('recordRows: only two table lines standing alone, text cells under a header', () => {
      expect(recordRows(COVER).map((r) => r.row.cells[2])).toEqual(['GLXZ']);
      // three lines: a table, not one record; numeric rows: read by tableRows
      expect(
        recordRows(`${COVER.replace('Common stock |  | GLXZ |  | OTCQB marketplace', 'A | | B | | C\nD | | E | | F')}`),
      ).toEqual([]);
      expect(recordRows('Region | Sales\nZone NA | 12553')).toEqual([]);
    });
  });

  it('property: the cell where the asked row meets the asked column is the answer; an absent column answers nothing', () => {
    const LABELS = ['Otterburn', 'Falkirk', 'Heronsgate', 'Badgerton', 'Lynwood'];
    const HEADS = ['Rainfall', 'Altitude', 'Turnover', 'Headcount', 'Mileage'];
    fc.assert(
      fc.property(
        fc.shuffledSubarray(HEADS, { minLength: 2, maxLength: 4 }),
        fc.array(fc.integer({ min: 1, max: 99999 }), { minLength: 25, maxLength: 25 }),
        fc.nat(),
        fc.nat(),
        (heads, values, r, c) => {
          const rows = LABELS.map((l, i) => [l, ...heads.map((_, j) => String(values[i * 5 + j]))]);
          const text = [['Place', ...heads].join(' | '), ...rows.map((row) => row.join(' | '))].join('\n');
          const opened = [{ chunk: { text, sheet: 'Places', title: null, filename: 'places.csv' } }];
          const row = rows[r % rows.length] ?? [];
          const col = c % heads.length;
          const ask = (head: string) =>
            bestTableRow(opened, {
              terms: analyze(`${head} ${row[0]}`),
              weight: () => 1,
              fits: (v) => /\d/.test(v),
            });
          const hit = ask(heads[col] ?? '');
          expect(hit?.label).toBe(row[0]);
          expect(hit?.value).toBe(row[col + 1]);
          expect(answersFromTable(hit, 0.5)).toBe(true);
          const absent = HEADS.find((h) => !heads.includes(h)) ?? '';
          expect(answersFromTable(ask(absent), 0.5)).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });
});

const PRICE_LIST = [
  'SKU | Product | Category | Unit | Price (EUR) | Stock',
  'NW-1001 | Stainless steel bolt M8 | Fasteners | box of 100 | 12.50 | 340',
  'NW-2001 | Cordless drill 18V | Power tools | each | 129.00 | 25',
  'NW-2002 | Angle grinder 125mm | Power tools | each | 89.90 | 0',
].join('\n');

describe('rows named after an identifier column', () => {
  it('the row is named by its first text cell when the first cell is a code or number', () => {
    expect(labelIndex(['NW-2001', 'Cordless drill 18V', 'Power tools', '129.00'])).toBe(1);
    expect(labelIndex(['E-10482', 'Jane Roe', 'Finance', '52000'])).toBe(1);
    expect(labelIndex(['Zone EUR', '9467', '1373'])).toBe(0);
    expect(labelIndex(['Apr-2015', '653,278', '107.5'])).toBe(0);
    expect(isIdentifierCell('NW-2001')).toBe(true);
    expect(isIdentifierCell('Cordless drill 18V')).toBe(false);
  });

  it('answers "how much does X cost" from the price column of the row naming X (its header names the currency)', () => {
    const chunk = chunkOf(PRICE_LIST, 'price-list.csv', 'price-list');
    const { ex, state } = answer('How much does the cordless drill cost?', chunk);
    expect(ex.answer).toContain('129.00');
    expect(ex.answer).toContain('Cordless drill 18V');
    expect(ex.answer).not.toContain('89.90');
    expect(validateDraft(ex.answer, state, { skipProcess: true }).passed).toBe(true);
    expect(answer('Is the angle grinder in stock?', chunk).ex.answer).toContain('Stock: 0');
  });

  it('a code the question names keys the row even when the name cell after it also matches', () => {
    const list = [
      'SKU | Product | Unit | Price (EUR)',
      'BP-10 | Bolt pack | box of 100 | 12.50',
      'BP-20 | Bolt pack | box of 200 | 21.00',
    ].join('\n');
    const chunk = chunkOf(list, 'price-list.csv', 'price-list');
    const ex = answer('How much does the bolt pack BP-20 cost?', chunk).ex;
    expect(ex.answer).toContain('21.00');
    expect(ex.answer).not.toContain('12.50');
  });

  it('a product the list does not hold is declined, and a code still finds its row', () => {
    const chunk = chunkOf(PRICE_LIST, 'price-list.csv', 'price-list');
    expect(declines(answer('How much does the hammer drill cost?', chunk).ex.answer)).toBe(true);
    // the price column says "cost", not "repair": a cost the list does not give is declined
    expect(declines(answer('How much does the cordless drill cost to repair?', chunk).ex.answer)).toBe(true);
    expect(answer('What is the price of NW-1001?', chunk).ex.answer).toContain('12.50');
  });
});

describe('opening the chunk that holds the asked row', () => {
  const doc = makeDocument({ filename: 'stock.xlsx', mime: 'application/vnd.ms-excel' });
  const header = 'Stock by depot\nDepot | Pallets | Forklifts';
  const first = makeChunk(doc, 0, `${header}\nArden | 120 | 4\nBexley | 98 | 3`, { sheet: 'Stock' });
  const second = makeChunk(doc, 1, `${header}\nCrawley | 77 | 2\nDunmore | 65 | 5`, { sheet: 'Stock' });
  const pdfText = makeChunk(doc, 2, 'Stock by depot\nDunmore 65 5\nEsher 12 1', { sheet: null });

  function withUnopened(question: string, unopened: (typeof first)[]) {
    const state = stateWith({ question, opened: [first] });
    for (const [i, chunk] of unopened.entries())
      registerHit(
        state,
        { ...chunk, snippet: chunk.text.slice(0, 80), text: chunk.text, score: 0.5 - i * 0.1, scores: { keyword: 1 } },
        question,
        { injected: [], suspect: [] },
      );
    return state;
  }

  it('opens the searched chunk whose table row answers when no opened one does', () => {
    const state = withUnopened('How many forklifts does the Dunmore depot have?', [second]);
    const handle = tableRowToOpen(state);
    expect(handle).not.toBeNull();
    expect(state.results.get(handle ?? '')?.hit.chunkId).toBe(second.chunkId);
  });

  it('opens nothing when an opened chunk answers, or when only text without cell separators holds the row', () => {
    expect(tableRowToOpen(withUnopened('How many forklifts does the Bexley depot have?', [second]))).toBeNull();
    expect(tableRowToOpen(withUnopened('How many forklifts does the Esher depot have?', [pdfText]))).toBeNull();
  });

  it('opens the searched chunk whose table caption names the asked year when the opened one names another', () => {
    const table = (year: number) =>
      [`In units |  | Jan–Jun ${year}`, 'Depot | Pallets | Forklifts', 'Dunmore | 65 | 5'].join('\n');
    const older = makeChunk(doc, 3, table(2021), { sheet: 'Stock 30 06 2022' });
    const newer = makeChunk(doc, 4, table(2022), { sheet: 'Stock 30 06 2022' });
    const state = stateWith({ question: 'How many forklifts did the Dunmore depot have in 2022?', opened: [older] });
    registerHit(
      state,
      { ...newer, snippet: newer.text.slice(0, 80), text: newer.text, score: 0.5, scores: { keyword: 1 } },
      state.question,
      { injected: [], suspect: [] },
    );
    const handle = tableRowToOpen(state);
    expect(state.results.get(handle ?? '')?.hit.chunkId).toBe(newer.chunkId);
  });

  it('opens nothing when the searched row has no column saying the asked attribute', () => {
    expect(tableRowToOpen(withUnopened('What is the floor area of the Dunmore depot?', [second]))).toBeNull();
  });
});

describe('captionAbove', () => {
  const text = [
    'Intro sentence that runs on for a good many words before the table, as prose does in a page.',
    '',
    'Hardness of grade X',
    '',
    '- | Brinell | Vickers',
    'X | 293 |',
  ].join('\n');
  const first = (t: string, line: string) => ({
    text: line,
    start: t.indexOf(line),
    end: t.indexOf(line) + line.length,
    cells: line.split(' | '),
  });

  it('is the short line above the table, blank lines skipped', () => {
    expect(captionAbove(text, first(text, '- | Brinell | Vickers'))).toBe('Hardness of grade X');
  });

  it('is empty for a table at the top, under prose, or under another table line', () => {
    const top = '- | Brinell | Vickers\nX | 293 |';
    expect(captionAbove(top, first(top, '- | Brinell | Vickers'))).toBe('');
    const prose = text.replace('Hardness of grade X\n\n', '');
    expect(captionAbove(prose, first(prose, '- | Brinell | Vickers'))).toBe('');
    expect(captionAbove(text, first(text, 'X | 293 |'))).toBe('');
  });
});
