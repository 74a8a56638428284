import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { buildTextPdf } from '../test/support/ingest/minimal-pdf';
import { ask, lastAnswer, uploadDocument } from './chat-helpers';
import { expect, test } from './fixtures';

// The document view (/documents/:id/view): reached from every row, showing the original, the text, the chunks,
// the details, and the download; spreadsheet evidence as tables; the app icons of the production build.

const NOTES = `# Site visit notes

## Findings

The north stairwell handrail is loose and must be fixed before the inspection on 14 March.

## Actions

Facilities will replace the handrail brackets. The budget for the repair is 1,250 euros.
`;

const CUPS = `Team,Location,Stanley Cups
Blues,STL,1
Flyers,PHI,2
Maple Leafs,TOR,13
Penguins,PIT,5
Bruins,BOS,6
`;

function noSidewaysScroll(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

async function uploadPdf(page: Page, name: string, pdf: Uint8Array): Promise<void> {
  const response = await page.request.post('/api/documents/upload', {
    data: Buffer.from(pdf),
    headers: { 'x-file-name': encodeURIComponent(name), 'content-type': 'application/pdf' },
  });
  expect(response.status()).toBeLessThan(300);
  await expect
    .poll(
      async () => {
        const body = (await (await page.request.get('/api/documents')).json()) as {
          documents: Array<{ filename: string; status: string }>;
        };
        return body.documents.find((d) => d.filename === name)?.status;
      },
      { timeout: 60_000 },
    )
    .toBe('INDEXED');
}

test('a document opens from its row by keyboard: its text, chunks with positions, details and the original', async ({
  page,
  user: _user,
}) => {
  const id = await uploadDocument(page, 'site-visit.md', NOTES);
  await page.goto('/documents');
  const link = page.locator('[data-testid="document-row"][data-filename="site-visit.md"]').getByTestId('document-name');
  await expect(link).toHaveAttribute('href', `/documents/${id}/view`);
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/documents/${id}/view$`));

  // the first heading is the title (it reads like one); the file name stays beside it
  await expect(page.getByTestId('document-view-title')).toHaveText('Site visit notes');
  await expect(page.locator('main header')).toContainText('site-visit.md');
  await expect(page.getByTestId('document-view-summary')).toHaveText(/\d+ sections? · \d+ chunks?/);
  await expect(page.getByTestId('unit-text').first()).toContainText('north stairwell');
  await expect(page.getByTestId('document-processing')).toContainText('Indexed');
  await expect(page.getByTestId('document-processing')).toContainText('Attempts');
  await expect(page.getByTestId('document-file')).toContainText('Markdown');

  // sections are named by their headings in the part picker
  await expect(page.getByLabel('Go to part')).toContainText('Actions');

  await page.getByTestId('view-tab-chunks').click();
  const chunks = page.getByTestId('chunk-item');
  await expect(chunks.first()).toBeVisible();
  await expect(chunks.first().getByTestId('chunk-location')).toHaveText(/Site visit notes|Findings|Actions|Section/);
  await expect(chunks.first()).toContainText(/chars \d+–\d+/);
  await expect(page.getByTestId('chunk-item').filter({ hasText: '1,250 euros' })).toHaveCount(1);

  // "Show in the document" is a deep link that opens the text at that chunk, tinted
  await chunks.filter({ hasText: '1,250 euros' }).getByRole('link', { name: 'Show in the document' }).click();
  await expect(page).toHaveURL(/tab=text&unit=\d+&chunk=/);
  await expect(page.getByTestId('unit-text').getByTestId('chunk-span')).toContainText('1,250 euros');

  // the original downloads under its own name, byte for byte
  const download = page.waitForEvent('download');
  await page.getByTestId('download-original').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('site-visit.md');
  const saved = await file.path();
  expect(fs.readFileSync(saved, 'utf8')).toBe(NOTES);

  // another user's document answers like a missing one
  const other = await page.request.get(`/documents/00000000-0000-4000-8000-000000000000/view`);
  expect(other.status()).toBe(404);
});

test('a PDF titled "10811.exe" in its metadata is shown under its file name; its pages render', async ({
  page,
  user: _user,
}) => {
  const pdf = buildTextPdf(
    [
      ['Quarterly report', 'Revenue grew by 12 percent in the third quarter.'],
      ['Outlook', 'The board expects flat revenue next quarter.'],
    ],
    { title: '10811.exe' },
  );
  await uploadPdf(page, 'quarterly-report.pdf', pdf);
  await page.goto('/documents');
  const row = page.locator('[data-testid="document-row"][data-filename="quarterly-report.pdf"]');
  await expect(row.getByTestId('document-title')).toHaveCount(0);
  await row.getByTestId('document-name').click();
  await expect(page.getByTestId('document-view-title')).toHaveText('quarterly-report.pdf');
  await expect(page.getByTestId('document-metadata')).toContainText('Not used as the name');
  // the page count appears once pdf.js (and its worker) has loaded the file: slow on a busy machine
  await expect(page.getByTestId('pdf-page-number')).toHaveText('Page 1 of 2', { timeout: 45_000 });
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByTestId('pdf-page-number')).toHaveText('Page 2 of 2');
  await expect(page).toHaveURL(/page=2/);

  // pages of the extracted text, and chunks that say which page they are on
  await page.getByTestId('view-tab-chunks').click();
  await expect(page.getByTestId('chunk-location').first()).toHaveText(/^Page \d$/);
  await page.getByTestId('view-tab-text').click();
  await expect(page.getByTestId('unit-text')).toContainText('Quarterly report');
});

test('spreadsheet evidence is a table with its header in the citation panel and the document view', async ({
  page,
  user: _user,
}) => {
  await uploadDocument(page, 'stanley-cups.csv', CUPS, 'text/csv');
  await page.goto('/chat');
  await ask(page, 'How many Stanley Cups have the Maple Leafs won?');
  const answer = lastAnswer(page);
  await expect(answer).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });

  // the chip names the file and the sheet
  const chip = answer.getByTestId('source-chip').first();
  await expect(chip).toContainText('stanley-cups.csv');
  await expect(chip).toContainText('sheet stanley-cups');

  await answer.getByRole('button', { name: 'Show source 1' }).first().click();
  const panel = page.getByTestId('citation-panel');
  const table = panel.getByTestId('source-text').getByTestId('sheet-table');
  await expect(table).toBeVisible();
  await expect(table.getByRole('columnheader')).toHaveText(['Team', 'Location', 'Stanley Cups']);
  await expect(table.getByRole('row', { name: /Maple Leafs/ })).toContainText('13');
  // the quote, too, is rows under their column header
  await expect(panel.getByTestId('quoted-table').getByRole('columnheader')).toHaveText([
    'Team',
    'Location',
    'Stanley Cups',
  ]);
  await expect(panel).not.toContainText(' | ');
  if (process.env.DOCVIEW_SCREENSHOT_DIR) {
    await page.screenshot({ path: path.join(process.env.DOCVIEW_SCREENSHOT_DIR, 'citation-panel-sheet.png') });
  }

  const href = await panel.getByTestId('open-document').getAttribute('href');
  if (!href) throw new Error('no viewer link');
  await page.goto(href);
  const viewTable = page.getByTestId('unit-text').getByTestId('sheet-table');
  await expect(viewTable.getByRole('columnheader')).toHaveText(['Team', 'Location', 'Stanley Cups']);
  // the cited rows are tinted (as quoted rows when the quote covers them whole)
  await expect(viewTable.locator('[data-testid="chunk-row"], [data-testid="quoted-row"]').first()).toBeVisible();
  if (process.env.DOCVIEW_SCREENSHOT_DIR) {
    await page.screenshot({ path: path.join(process.env.DOCVIEW_SCREENSHOT_DIR, 'document-view-sheet.png') });
  }
  await page.getByTestId('view-tab-chunks').click();
  await expect(page.getByTestId('chunk-location').first()).toHaveText(/^Sheet stanley-cups · rows 1–5$/);
  await expect(page.getByTestId('chunk-item').first().getByRole('columnheader')).toHaveText([
    'Team',
    'Location',
    'Stanley Cups',
  ]);
});

test('the document view fits a phone and a desktop (screenshots for review)', async ({ page, user: _user }) => {
  const dir = process.env.DOCVIEW_SCREENSHOT_DIR ?? test.info().outputPath();
  fs.mkdirSync(dir, { recursive: true });
  await uploadDocument(page, 'site-visit.md', NOTES);
  const pdf = buildTextPdf(
    [
      [
        'Tenancy agreement',
        'The rent is 950 euros per month, due on the first day of each month.',
        'The deposit is two months of rent and is returned within 30 days of the end of the tenancy.',
      ],
      ['House rules', 'Quiet hours are from 22:00 to 07:00.', 'Pets are allowed with written consent.'],
    ],
    { title: 'Tenancy agreement, Rue de la Paix 12' },
  );
  await uploadPdf(page, 'tenancy-agreement-2024.pdf', pdf);
  await page.goto('/documents');
  await page
    .locator('[data-testid="document-row"][data-filename="tenancy-agreement-2024.pdf"]')
    .getByTestId('document-name')
    .click();
  await expect(page.getByTestId('document-view-title')).toHaveText('Tenancy agreement, Rue de la Paix 12');
  const url = page.url();

  // desktop: a chunk opened from the Chunks list, i.e. the deep link citations use (page, chunk highlighted)
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto(url);
  await page.getByTestId('view-tab-chunks').click();
  await page
    .getByTestId('chunk-item')
    .filter({ hasText: 'Quiet hours' })
    .getByRole('link', { name: 'Show in the document' })
    .click();
  await expect(page).toHaveURL(/tab=original&page=2&chunk=/);
  await expect(page.getByTestId('pdf-page-number')).toHaveText('Page 2 of 2');
  await expect(page.getByTestId('cited-passage-note')).toContainText('Page 2');
  await expect(page.getByText('Rendering…')).toHaveCount(0);
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, 'document-view-desktop.png'), fullPage: false });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url);
  await expect(page.getByTestId('pdf-page').locator('canvas')).toBeVisible();
  await expect(page.getByText('Rendering…')).toHaveCount(0);
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: path.join(dir, 'document-view-phone.png'), fullPage: true });

  await page.getByTestId('view-tab-chunks').click();
  await expect(page.getByTestId('chunk-item').first()).toBeVisible();
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: path.join(dir, 'document-view-phone-chunks.png'), fullPage: true });
});

test('a file that failed says why, that Retry cannot help, and still downloads', async ({ page, user: _user }) => {
  const locked = path.resolve(process.cwd(), '../shared/data/documents/pdfplumber/password-example.pdf');
  const response = await page.request.post('/api/documents/upload', {
    data: fs.readFileSync(locked),
    headers: { 'x-file-name': 'password-example.pdf', 'content-type': 'application/pdf' },
  });
  expect(response.status()).toBeLessThan(300);
  const { document } = (await response.json()) as { document: { id: string } };
  await expect
    .poll(
      async () => {
        const body = (await (await page.request.get('/api/documents')).json()) as {
          documents: Array<{ id: string; status: string }>;
        };
        return body.documents.find((d) => d.id === document.id)?.status;
      },
      { timeout: 60_000 },
    )
    .toBe('FAILED');
  await page.goto(`/documents/${document.id}/view`);
  const failure = page.getByTestId('document-view-failure');
  await expect(failure).toContainText('password-protected');
  await expect(failure).toContainText('Retrying will not help');
  await expect(page.getByTestId('detail-advice')).toContainText('without the password');
  await expect(page.getByTestId('download-original')).toBeVisible();
  await expect(page.getByText('Download the original to open it elsewhere')).toBeVisible();
  await page.getByTestId('view-tab-chunks').click();
  await expect(page.getByText('This document has no chunks')).toBeVisible();
  if (process.env.DOCVIEW_SCREENSHOT_DIR) {
    await page.screenshot({ path: path.join(process.env.DOCVIEW_SCREENSHOT_DIR, 'document-view-failed.png') });
  }
});

test('the app icons and the manifest answer 200', async ({ request }) => {
  for (const [file, type] of [
    ['/favicon.ico', /image\//],
    ['/icon.svg', /image\/svg\+xml/],
    ['/apple-icon.png', /image\/png/],
    ['/manifest.webmanifest', /application\/manifest\+json|application\/json/],
    ['/icon-192.png', /image\/png/],
    ['/icon-512.png', /image\/png/],
  ] as const) {
    const response = await request.get(file);
    expect(response.status(), file).toBe(200);
    expect(response.headers()['content-type'], file).toMatch(type);
  }
  const manifest = (await (await request.get('/manifest.webmanifest')).json()) as { icons: { src: string }[] };
  for (const icon of manifest.icons) expect((await request.get(icon.src)).status(), icon.src).toBe(200);
});
