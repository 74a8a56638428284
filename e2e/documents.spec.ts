import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

// The shared corpus sits beside the repository: /work/shared/data/documents when run from /work/main.
const CORPUS = path.resolve(process.cwd(), '../shared/data/documents');
const corpus = (relative: string) => path.join(CORPUS, relative);

const FILES = {
  minutes: corpus('pdfplumber/2023-06-20-PV.pdf'),
  minimal: corpus('pypdf_sample_files/001-trivial/minimal-document.pdf'),
  markdown: corpus('unstructured/simple-table.md'),
  csv: corpus('unstructured/stanley-cups.csv'),
  html: corpus('unstructured/ideas-page.html'),
  docx: corpus('unstructured/handbook-1p.docx'),
  xlsx: corpus('unstructured/vodafone.xlsx'),
  passwordPdf: corpus('pdfplumber/password-example.pdf'),
  emptyPdf: corpus('pdfplumber/empty.pdf'),
};

/** A legacy PowerPoint (.ppt) compound file: a format the app still refuses at upload. */
function legacyPowerPoint(): FilePayload {
  const buffer = Buffer.alloc(4096);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(buffer);
  Buffer.from('PowerPoint Document', 'utf16le').copy(buffer, 1024);
  return { name: 'slides.ppt', mimeType: 'application/vnd.ms-powerpoint', buffer };
}

const INDEXING_TIMEOUT = 90_000;

function attr(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

function documentRow(page: Page, filename: string): Locator {
  return page.locator(`[data-testid="document-row"][data-filename="${attr(filename)}"]`);
}

function uploadRow(page: Page, filename: string): Locator {
  return page.locator(`[data-testid="upload-row"][data-filename="${attr(filename)}"]`);
}

/** Fails the test if any alert/confirm/prompt ever opens (our confirmations are in-page dialogs). */
function forbidNativeDialogs(page: Page): { fired: string[] } {
  const record = { fired: [] as string[] };
  page.on('dialog', (dialog) => {
    record.fired.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return record;
}

interface FilePayload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

const MIME_BY_EXT: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.md': 'text/markdown',
  '.txt': 'text/plain',
  '.rtf': 'application/rtf',
};

/** A file from disk as an in-memory payload (setInputFiles takes paths or payloads, not a mix). */
function fromDisk(filePath: string): FilePayload {
  return {
    name: path.basename(filePath),
    mimeType: MIME_BY_EXT[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream',
    buffer: fs.readFileSync(filePath),
  };
}

/** Chooses files through the "Choose files" picker, all at once. */
async function upload(page: Page, files: string | FilePayload | (string | FilePayload)[]): Promise<void> {
  const list = Array.isArray(files) ? files : [files];
  const paths = list.filter((f): f is string => typeof f === 'string');
  // only paths: let the browser read them (big files stay off the protocol); a mix goes as payloads
  await page
    .getByLabel('Choose files')
    .setInputFiles(paths.length === list.length ? paths : list.map((f) => (typeof f === 'string' ? fromDisk(f) : f)));
}

async function expectIndexed(page: Page, filename: string): Promise<void> {
  const row = documentRow(page, filename);
  await expect(row).toHaveAttribute('data-status', 'INDEXED', { timeout: INDEXING_TIMEOUT });
  await expect(row.getByTestId('document-counts')).toHaveText(
    /^\d[\d,]* (pages?|sections?|sheets?) · \d[\d,]* chunks?$/,
  );
}

async function noErrorToasts(page: Page): Promise<void> {
  await expect(page.locator('[data-error-code]')).toHaveCount(0);
}

test('uploads many files at once; each goes through the stages to INDEXED with page and chunk counts', async ({
  page,
  user: _user,
}) => {
  test.setTimeout(180_000);
  const dialogs = forbidNativeDialogs(page);
  await expect(page.getByText('No documents yet')).toBeVisible();
  await expect(page.getByText('Up to 100 MB per file', { exact: false })).toBeVisible();

  // the dashboard asks the server over and over while anything is unfinished
  const polls: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/documents') polls.push(request.url());
  });

  const textFile = { name: 'meeting-notes.txt', mimeType: 'text/plain', buffer: Buffer.from(notesText()) };
  await upload(page, [
    FILES.minutes,
    FILES.minimal,
    FILES.markdown,
    FILES.csv,
    FILES.html,
    FILES.docx,
    FILES.xlsx,
    textFile,
  ]);

  const names = [
    '2023-06-20-PV.pdf',
    'minimal-document.pdf',
    'simple-table.md',
    'stanley-cups.csv',
    'ideas-page.html',
    'handbook-1p.docx',
    'vodafone.xlsx',
    'meeting-notes.txt',
  ];
  for (const name of names) await expect(documentRow(page, name)).toHaveCount(1, { timeout: 30_000 });
  for (const name of names) await expectIndexed(page, name);

  await expect(page.getByTestId('upload-row')).toHaveCount(0);
  await expect(page.getByTestId('status-filter-INDEXED')).toContainText(String(names.length));
  await expect(page.getByTestId('status-filter-FAILED')).toContainText('0');
  expect(polls.length).toBeGreaterThan(0);

  // polling stops once everything is final
  const settled = polls.length;
  await page.waitForTimeout(3000);
  expect(polls.length - settled).toBeLessThanOrEqual(1);

  // no embedder in the e2e environment: the banner says so and rows are keyword-only
  await expect(page.getByTestId('semantic-search-banner')).toContainText(
    'Semantic search is off: no embedding model answered. Documents are indexed for keyword search and get vectors when',
  );
  await expect(documentRow(page, 'simple-table.md').getByText('Keyword only')).toBeVisible();

  // live state survives a reload (it is the server's, not the page's)
  await page.reload();
  for (const name of names) await expect(documentRow(page, name)).toHaveAttribute('data-status', 'INDEXED');

  // the name search narrows the list, case-insensitively
  await page.getByLabel('Search by name').fill('STANLEY');
  await expect(page.getByTestId('document-row')).toHaveCount(1);
  await expect(documentRow(page, 'stanley-cups.csv')).toBeVisible();
  await page.getByLabel('Search by name').fill('');
  await expect(page.getByTestId('document-row')).toHaveCount(names.length);

  await noErrorToasts(page);
  expect(dialogs.fired).toEqual([]);
});

test('a dropped file anywhere on the page is uploaded, with a full-page highlight while dragging', async ({
  page,
  user: _user,
}) => {
  const dataTransfer = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(
      new File(['Dropped onto the page. Revenue grew 12 percent.'], 'dropped.md', { type: 'text/markdown' }),
    );
    return transfer;
  });
  await page.dispatchEvent('main', 'dragenter', { dataTransfer });
  await expect(page.getByTestId('drop-overlay')).toBeVisible();
  await expect(page.getByTestId('drop-overlay')).toContainText('Drop to upload');
  await page.dispatchEvent('main', 'drop', { dataTransfer });
  await expect(page.getByTestId('drop-overlay')).toHaveCount(0);
  await expectIndexed(page, 'dropped.md');
});

test('broken files end with a readable reason; Retry only where it can help', async ({ page, user: _user }) => {
  test.setTimeout(120_000);
  await upload(page, [FILES.passwordPdf, FILES.emptyPdf, legacyPowerPoint()]);

  // a password-protected PDF is accepted, then fails in parsing: a FAILED document with its reason and what to
  // do instead of retrying (the same file can never succeed)
  const locked = documentRow(page, 'password-example.pdf');
  await expect(locked).toHaveAttribute('data-status', 'FAILED', { timeout: INDEXING_TIMEOUT });
  await expect(locked.getByTestId('document-error')).toContainText(/password-protected/i);
  await expect(locked.getByTestId('document-advice')).toContainText(/without the password/i);
  await expect(locked.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expect(page.getByTestId('status-filter-FAILED')).toContainText('1');
  // the header counts are the filter's counts, in the same words
  await expect(page.getByTestId('library-count-FAILED')).toHaveText('1 failed');
  await expect(page.getByTestId('library-count-PROCESSING')).toHaveCount(0);

  // an empty file and an unsupported format are refused at upload: a failed upload row with the reason
  const empty = uploadRow(page, 'empty.pdf');
  await expect(empty).toHaveAttribute('data-status', 'FAILED');
  await expect(empty.getByTestId('upload-error')).toContainText(/empty/i);
  await expect(documentRow(page, 'empty.pdf')).toHaveCount(0);
  const ppt = uploadRow(page, 'slides.ppt');
  await expect(ppt).toHaveAttribute('data-status', 'FAILED');
  await expect(ppt.getByTestId('upload-error')).toContainText(/cannot be indexed/i);
  // refusals are not retryable (sending the same bytes again cannot help) and are not error toasts
  await expect(empty.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await noErrorToasts(page);
  await empty.getByRole('button', { name: 'Dismiss' }).click();
  await expect(empty).toHaveCount(0);

  // its view says the same: the reason, that retrying will not help, and what to do
  await locked.getByTestId('document-name').click();
  await expect(page.getByTestId('document-view-failure')).toContainText('password-protected');
  await expect(page.getByTestId('document-view-failure')).toContainText('Retrying will not help');
  await page.getByRole('link', { name: 'Documents', exact: true }).first().click();
  await expect(locked).toHaveAttribute('data-status', 'FAILED');

  // the status filter shows only the failed one
  await page.getByTestId('status-filter-FAILED').click();
  await expect(page.getByTestId('document-row')).toHaveCount(1);
});

test('delete asks first, removes the document, and it stays gone after reload', async ({ page, user: _user }) => {
  await upload(page, [FILES.markdown, FILES.csv]);
  await expectIndexed(page, 'simple-table.md');
  await expectIndexed(page, 'stanley-cups.csv');

  const row = documentRow(page, 'simple-table.md');
  await row.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText('simple-table.md');
  // cancelling keeps it
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toHaveCount(1);

  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete document' }).click();
  await expect(row).toHaveCount(0);
  await expect(documentRow(page, 'stanley-cups.csv')).toHaveCount(1);

  await page.reload();
  await expect(documentRow(page, 'stanley-cups.csv')).toHaveCount(1);
  await expect(documentRow(page, 'simple-table.md')).toHaveCount(0);
  const { documents } = (await (await page.request.get('/api/documents')).json()) as {
    documents: { filename: string }[];
  };
  expect(documents.map((d) => d.filename)).toEqual(['stanley-cups.csv']);
});

test('uploading the same content again says it is a duplicate and adds no second row', async ({
  page,
  user: _user,
}) => {
  await upload(page, FILES.csv);
  await expectIndexed(page, 'stanley-cups.csv');

  await upload(page, FILES.csv);
  const again = uploadRow(page, 'stanley-cups.csv');
  await expect(again).toHaveAttribute('data-status', 'DUPLICATE');
  await expect(again).toContainText('Already uploaded as stanley-cups.csv');

  // same bytes under another name: still recognised, and named after the original
  await upload(page, { name: 'cups-copy.csv', mimeType: 'text/csv', buffer: fs.readFileSync(FILES.csv) });
  await expect(uploadRow(page, 'cups-copy.csv')).toContainText('Already uploaded as stanley-cups.csv');

  await expect(page.getByTestId('document-row')).toHaveCount(1);
  await noErrorToasts(page);

  // "Show it" leads to the existing row
  await again.getByRole('button', { name: 'Show it' }).click();
  await expect(documentRow(page, 'stanley-cups.csv')).toBeInViewport();

  await page.reload();
  await expect(page.getByTestId('document-row')).toHaveCount(1);
});

test('buckets: create, move documents in (row and bulk), filter, rename, delete', async ({ page, user: _user }) => {
  test.setTimeout(120_000);
  await upload(page, [FILES.markdown, FILES.csv, FILES.html]);
  for (const name of ['simple-table.md', 'stanley-cups.csv', 'ideas-page.html']) await expectIndexed(page, name);

  await page.getByLabel('New bucket').fill('Contracts');
  await page.getByRole('button', { name: 'Create bucket' }).click();
  const contracts = page.locator('[data-testid="bucket-filter"][data-bucket-name="Contracts"]');
  await expect(contracts).toBeVisible();

  // the same name again is refused inline
  await page.getByLabel('New bucket').fill('contracts');
  await page.getByRole('button', { name: 'Create bucket' }).click();
  await expect(page.getByText('You already have a bucket named “contracts”.')).toBeVisible();
  await page.getByLabel('New bucket').fill('');

  // per-row move
  const moved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/api/documents/'));
  await documentRow(page, 'stanley-cups.csv').getByLabel('Move to bucket').selectOption({ label: 'Contracts' });
  expect((await moved).status()).toBe(200);
  await expect(contracts).toContainText('1');

  await contracts.click();
  await expect(page.getByTestId('document-row')).toHaveCount(1);
  await expect(documentRow(page, 'stanley-cups.csv')).toBeVisible();
  // viewing a bucket makes it the upload target
  await expect(page.getByLabel('Upload into')).toHaveValue(/[0-9a-f-]{36}/);

  await page.getByTestId('bucket-filter-none').click();
  await expect(page.getByTestId('document-row')).toHaveCount(2);

  // bulk move: select → move
  await documentRow(page, 'simple-table.md').getByRole('checkbox').check();
  await documentRow(page, 'ideas-page.html').getByRole('checkbox').check();
  await expect(page.getByTestId('bulk-actions')).toContainText('2 selected');
  await page.getByLabel('Move selected to').selectOption({ label: 'Contracts' });
  await page.getByTestId('bulk-actions').getByRole('button', { name: 'Move' }).click();
  await expect(page.getByTestId('document-row')).toHaveCount(0);
  await expect(contracts).toContainText('3');

  // the server has it: after reload the bucket filter still finds all three
  await page.reload();
  await page.locator('[data-testid="bucket-filter"][data-bucket-name="Contracts"]').click();
  await expect(page.getByTestId('document-row')).toHaveCount(3);
  await page.getByTestId('bucket-filter-none').click();
  await expect(page.getByTestId('document-row')).toHaveCount(0);

  // rename in place
  await page.getByRole('button', { name: 'Rename bucket Contracts' }).click();
  await page.getByLabel('New name for the bucket').fill('Clients');
  await page.getByLabel('New name for the bucket').press('Enter');
  const clients = page.locator('[data-testid="bucket-filter"][data-bucket-name="Clients"]');
  await expect(clients).toBeVisible();
  await expect(clients).toContainText('3');

  // delete with confirmation: the documents stay, without a bucket
  await page.getByRole('button', { name: 'Delete bucket Clients' }).click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('stay in your library');
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete bucket' }).click();
  await expect(clients).toHaveCount(0);
  await page.getByTestId('bucket-filter-none').click();
  await expect(page.getByTestId('document-row')).toHaveCount(3);
  await page.reload();
  await expect(page.getByTestId('bucket-filter')).toHaveCount(0);
  await expect(page.getByTestId('bucket-filter-none')).toContainText('3');
});

test('metadata: inline validation, then title, date, tag and field are saved and survive a reload', async ({
  page,
  user: _user,
}) => {
  await upload(page, FILES.minutes);
  await expectIndexed(page, '2023-06-20-PV.pdf');
  const row = documentRow(page, '2023-06-20-PV.pdf');

  await row.getByRole('button', { name: 'Details' }).click();
  const dialog = page.getByTestId('metadata-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Title', { exact: true }).fill('Council minutes, June 2023');
  await dialog.getByLabel('Document date').fill('2023-06-20');
  await dialog.getByLabel('Tags', { exact: true }).fill('minutes');
  await dialog.getByLabel('Tags', { exact: true }).press('Enter');
  await dialog.getByLabel('Tags', { exact: true }).fill('council');
  await dialog.getByLabel('Tags', { exact: true }).press('Enter');
  await expect(dialog.getByTestId('tag-chip')).toHaveText(['minutes', 'council']);
  await dialog.getByRole('button', { name: 'Remove tag council' }).click();
  await expect(dialog.getByTestId('tag-chip')).toHaveText(['minutes']);

  // a value without a name is refused inline, nothing is sent
  await dialog.getByRole('button', { name: 'Add field' }).click();
  await dialog.getByLabel('Field 1 value').fill('ACME');
  let patches = 0;
  page.on('request', (r) => {
    if (r.method() === 'PATCH') patches += 1;
  });
  await dialog.getByRole('button', { name: 'Save details' }).click();
  await expect(dialog.getByText('Give this field a name.')).toBeVisible();
  expect(patches).toBe(0);
  await dialog.getByLabel('Field 1 name').fill('Client');
  await dialog.getByRole('button', { name: 'Save details' }).click();
  await expect(dialog).toHaveCount(0);
  expect(patches).toBe(1);

  await expect(row.getByTestId('document-title')).toHaveText('Council minutes, June 2023');
  await expect(row.getByTestId('document-tag')).toHaveText(['minutes']);
  await expect(row).toContainText('Jun 20, 2023');

  await page.reload();
  await expect(row.getByTestId('document-title')).toHaveText('Council minutes, June 2023');
  await expect(row.getByTestId('document-tag')).toHaveText(['minutes']);
  await row.getByRole('button', { name: 'Details' }).click();
  await expect(dialog.getByLabel('Title', { exact: true })).toHaveValue('Council minutes, June 2023');
  await expect(dialog.getByLabel('Document date')).toHaveValue('2023-06-20');
  await expect(dialog.getByLabel('Field 1 name')).toHaveValue('Client');
  await expect(dialog.getByLabel('Field 1 value')).toHaveValue('ACME');
  // Escape closes without saving
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // the title is searchable from the name box
  await page.getByLabel('Search by name').fill('council');
  await expect(page.getByTestId('document-row')).toHaveCount(1);
});

test('hostile file names are shown as text: no markup, no script, no layout break', async ({ page, user: _user }) => {
  const dialogs = forbidNativeDialogs(page);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-hostile-'));
  const hostile = '<img src=x onerror=alert(1)>.txt';
  const hostilePath = path.join(dir, hostile);
  fs.writeFileSync(hostilePath, 'A file with a hostile name. It still has ordinary text about invoices.\n');
  // 1,000 characters with a right-to-left override and markup (the server shortens and cleans it)
  // (no slash in it: the server keeps only the part after the last path separator)
  const longName = `${'<b onclick=alert(2)>quarterly report '.repeat(27)}\u202Egnp.exe${'x'.repeat(20)}.md`.slice(
    -1000,
  );
  try {
    await upload(page, [
      hostilePath,
      {
        name: longName,
        mimeType: 'text/markdown',
        buffer: Buffer.from('# Long name\n\nBody text for the long name.\n'),
      },
    ]);
    const row = documentRow(page, hostile);
    await expectIndexed(page, hostile);
    await expect(row.getByTestId('document-name')).toHaveText(hostile);
    await expect(row.getByTestId('document-name')).toHaveAttribute('title', hostile);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await expect(page.locator('b', { hasText: 'quarterly report' })).toHaveCount(0);

    // the long one: one row, truncated by CSS inside its row, full (cleaned) name in the title attribute
    const rows = page.getByTestId('document-row');
    await expect(rows).toHaveCount(2);
    const longRow = rows.filter({ hasNot: page.locator(`[title="${attr(hostile)}"]`) });
    await expect(longRow).toHaveAttribute('data-status', 'INDEXED', { timeout: INDEXING_TIMEOUT });
    const nameEl = longRow.getByTestId('document-name');
    const title = (await nameEl.getAttribute('title')) ?? '';
    expect(title.length).toBeGreaterThan(200);
    expect(title).not.toContain('\u202E');
    const [nameBox, rowBox] = await Promise.all([nameEl.boundingBox(), longRow.boundingBox()]);
    expect(nameBox && rowBox && nameBox.width <= rowBox.width).toBe(true);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);

    // open the details and the delete confirmation: the name is text there too
    await row.getByRole('button', { name: 'Details' }).click();
    await expect(page.getByTestId('metadata-dialog')).toContainText(hostile);
    await page.keyboard.press('Escape');
    await row.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByTestId('confirm-dialog')).toContainText(hostile);
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(dialogs.fired).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an upload in flight shows byte progress and can be cancelled', async ({ page, user: _user }) => {
  // slow the connection so the transfer is observable
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 64 * 1024,
  });
  const big = { name: 'slow-upload.txt', mimeType: 'text/plain', buffer: Buffer.from(notesText().repeat(4000)) };
  await upload(page, big);
  const row = uploadRow(page, 'slow-upload.txt');
  await expect(row).toHaveAttribute('data-status', 'UPLOADING');
  await expect(row.getByTestId('upload-stage')).toHaveText(/Uploading \d+% · /);
  await row.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toHaveCount(0);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await page.reload();
  await expect(page.getByTestId('document-row')).toHaveCount(0);
  await expect(page.getByText('No documents yet')).toBeVisible();
});

test('a running job can be cancelled; it ends FAILED as cancelled and can be retried', async ({
  page,
  user: _user,
}) => {
  test.setTimeout(180_000);
  // three ~8 MB text files take the two ingest workers a few seconds each, so one is surely unfinished
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-big-'));
  const names = ['big-a.txt', 'big-b.txt', 'big-c.txt'];
  try {
    for (const name of names) fs.writeFileSync(path.join(dir, name), bigText(name, 8 * 1024 * 1024));
    await upload(
      page,
      names.map((name) => path.join(dir, name)),
    );
    const rows = names.map((name) => documentRow(page, name));
    for (const row of rows) await expect(row).toHaveCount(1, { timeout: 60_000 });
    let target: Locator | null = null;
    for (const row of rows.slice().reverse()) {
      const status = await row.getAttribute('data-status');
      if (status === 'PENDING' || status === 'PROCESSING') {
        target = row;
        break;
      }
    }
    expect(target, 'one of three large files should still be queued or running').not.toBeNull();
    if (!target) return;
    await target.getByRole('button', { name: 'Cancel' }).click();
    await expect(target).toHaveAttribute('data-status', 'FAILED', { timeout: INDEXING_TIMEOUT });
    await expect(target.getByTestId('document-error')).toContainText(/cancelled/i);
    await target.getByRole('button', { name: 'Retry' }).click();
    await expect(target).toHaveAttribute('data-status', 'INDEXED', { timeout: INDEXING_TIMEOUT });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// A review aid, not a behaviour test: run with DASHBOARD_SCREENSHOT=/tmp/dashboard.png to look at the page.
test('the dashboard, with files in several states (screenshot for review)', async ({ page, user: _user }) => {
  test.skip(!process.env.DASHBOARD_SCREENSHOT, 'set DASHBOARD_SCREENSHOT to take the review screenshot');
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await upload(page, [FILES.minutes, FILES.docx, FILES.csv, FILES.passwordPdf, FILES.emptyPdf]);
  await expectIndexed(page, '2023-06-20-PV.pdf');
  await page.getByLabel('New bucket').fill('Board meetings');
  await page.getByRole('button', { name: 'Create bucket' }).click();
  await expect(page.locator('[data-testid="bucket-filter"][data-bucket-name="Board meetings"]')).toBeVisible();
  await expectIndexed(page, 'handbook-1p.docx');
  await expect(documentRow(page, 'password-example.pdf')).toHaveAttribute('data-status', 'FAILED', {
    timeout: INDEXING_TIMEOUT,
  });
  await documentRow(page, '2023-06-20-PV.pdf').getByLabel('Move to bucket').selectOption({ label: 'Board meetings' });
  await upload(page, FILES.csv); // a duplicate info row
  // running and queued rows: big text files keep both ingest workers busy for a few seconds
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-shot-'));
  try {
    const names = ['annual-archive-2019.txt', 'annual-archive-2020.txt', 'annual-archive-2021.txt'];
    for (const name of names) fs.writeFileSync(path.join(dir, name), bigText(name, 20 * 1024 * 1024));
    await upload(
      page,
      names.map((name) => path.join(dir, name)),
    );
    await expect(documentRow(page, 'annual-archive-2021.txt')).toHaveCount(1, { timeout: 60_000 });
    await expect(page.locator('[data-testid="document-row"][data-status="PROCESSING"]').first()).toBeVisible();
    await page.screenshot({ path: process.env.DASHBOARD_SCREENSHOT ?? '/tmp/dashboard.png', fullPage: true });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** About `bytes` of distinct prose (the seed makes each file's content, and so its hash, different). */
function bigText(seed: string, bytes: number): string {
  const words = 'budget contract vendor archive migration decision action council minutes revenue quarter'.split(' ');
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `${seed} paragraph ${i}: ${Array.from({ length: 40 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ')}.\n\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('');
}

function notesText(): string {
  return [
    'Weekly meeting notes',
    '',
    'Attendees: Dana, Lee, Priya.',
    'Decision: the Q3 budget for the archive migration is approved at 42,000 EUR.',
    'Action: Lee sends the signed contract to the vendor by Friday.',
    '',
  ].join('\n');
}
