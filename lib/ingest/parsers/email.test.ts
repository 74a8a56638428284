import { describe, expect, it } from 'vitest';
import { parseEml } from './email';

const crlf = (lines: string[]) => new Uint8Array(Buffer.from(lines.join('\r\n')));

describe('parseEml', () => {
  it('indexes headers and body, and returns attachments as child files', async () => {
    const parsed = await parseEml(
      crlf([
        'From: Ada <ada@example.org>',
        'To: Bob <bob@example.org>',
        'Subject: Budget 2024',
        'Date: Tue, 2 Jan 2024 10:00:00 +0000',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="b1"',
        '',
        '--b1',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'The budget is attached.',
        '--b1',
        'Content-Type: text/csv; name="budget.csv"',
        'Content-Disposition: attachment; filename="../../budget.csv"',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('item,amount\nrent,100\n').toString('base64'),
        '--b1--',
        '',
      ]),
    );
    expect(parsed.title).toBe('Budget 2024');
    expect(parsed.units).toHaveLength(1);
    expect(parsed.units[0]?.text).toContain('Subject: Budget 2024\nFrom: "Ada" <ada@example.org>');
    expect(parsed.units[0]?.text).toContain('Attachments: budget.csv\n\nThe budget is attached.');
    expect(parsed.children).toHaveLength(1);
    expect(parsed.children?.[0]?.filename).toBe('budget.csv');
    expect(Buffer.from(parsed.children?.[0]?.bytes ?? []).toString()).toBe('item,amount\nrent,100\n');
  });

  it('indexes only the headers of an encrypted message and takes none of its parts', async () => {
    const parsed = await parseEml(
      crlf([
        'From: a@example.org',
        'Subject: secret',
        'Content-Type: multipart/encrypted; boundary=foo; protocol="application/pgp-encrypted"',
        '',
        '--foo',
        'Content-Type: application/pgp-encrypted',
        '',
        'Version: 1',
        '--foo',
        'Content-Type: application/octet-stream',
        '',
        '-----BEGIN PGP MESSAGE-----',
        'abc',
        '-----END PGP MESSAGE-----',
        '--foo--',
      ]),
    );
    expect(parsed.children).toEqual([]);
    expect(parsed.units[0]?.text).toContain('encrypted');
    expect(parsed.warnings.join(' ')).toMatch(/encrypted/);
  });
});
