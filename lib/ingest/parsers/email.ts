/**
 * E-mail → one unit: the headers (subject, from, to, cc, date, attachment names) then the body text. EML through
 * mailparser (Nodemailer's MIME parser), Outlook MSG through @kenjiuno/msgreader. Attachments become child files
 * that intake turns into documents of their own (same owner and bucket, cited on their own); inline images that
 * only decorate an HTML body, and the parts of encrypted or signed wrappers, are not.
 */

import MsgReaderModule from '@kenjiuno/msgreader';
import { simpleParser } from 'mailparser';
import { IngestError } from '../errors';
import type { ChildFile, ParsedDocument, ParsedUnit } from '../types';
import { bodyOf, dropNonContent, parseHtmlDocument, sectionsFromDom } from './html-sections';

/** Most attachments kept per message; the rest are named in a warning. */
export const MAX_ATTACHMENTS = 100;
/** Most bytes of attachments kept per message. */
const MAX_ATTACHMENT_BYTES = 256 * 1024 * 1024;
/** MIME types of parts that are keys, signatures or ciphertext rather than documents. */
const CRYPTO_PART = /^application\/(pgp-(encrypted|signature|keys)|(x-)?pkcs7-(mime|signature)|pkcs7)$/i;
const CRYPTO_NAME = /\.(p7m|p7s|p7c|asc|sig|gpg|pgp)$/i;

/** The package is CommonJS with an ES `default` export: unwrap it under either module system. */
const MsgReader: typeof MsgReaderModule =
  (MsgReaderModule as unknown as { default?: typeof MsgReaderModule }).default ?? MsgReaderModule;
type MsgReader = MsgReaderModule;

export interface MailFields {
  subject: string | null;
  from: string | null;
  to: string | null;
  cc: string | null;
  date: string | null;
  body: string;
  attachments: ChildFile[];
  warnings: string[];
  encrypted: boolean;
}

function htmlToText(html: string): string {
  const document = parseHtmlDocument(html);
  dropNonContent(document);
  const body = bodyOf(document);
  return body
    ? sectionsFromDom(body)
        .map((s) => s.text)
        .join('\n\n')
    : '';
}

function cleanBody(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Keeps attachments within the count and byte caps, naming the dropped ones in `warnings`. */
function capAttachments(all: ChildFile[], warnings: string[]): ChildFile[] {
  const kept: ChildFile[] = [];
  let bytes = 0;
  for (const file of all) {
    if (kept.length >= MAX_ATTACHMENTS || bytes + file.bytes.byteLength > MAX_ATTACHMENT_BYTES) {
      warnings.push(`attachment ${file.filename} not ingested (over ${MAX_ATTACHMENTS} files or 256 MB)`);
      continue;
    }
    bytes += file.bytes.byteLength;
    kept.push(file);
  }
  return kept;
}

function mailDocument(kind: 'eml' | 'msg', mail: MailFields): ParsedDocument {
  const headerLines = [
    mail.subject ? `Subject: ${mail.subject}` : null,
    mail.from ? `From: ${mail.from}` : null,
    mail.to ? `To: ${mail.to}` : null,
    mail.cc ? `Cc: ${mail.cc}` : null,
    mail.date ? `Date: ${mail.date}` : null,
    mail.attachments.length > 0 ? `Attachments: ${mail.attachments.map((a) => a.filename).join(', ')}` : null,
  ].filter((line): line is string => line !== null);
  const body = cleanBody(mail.body);
  const note = mail.encrypted && !body ? '(The message body is encrypted and was not read.)' : '';
  const text = [headerLines.join('\n'), body || note].filter((part) => part !== '').join('\n\n');
  if (!text.trim()) throw new IngestError('no-text', 'no extractable text (the message is empty)');
  const unit: ParsedUnit = {
    ordinal: 0,
    page: null,
    sheet: null,
    headingPath: mail.subject ? [mail.subject] : [],
    text,
  };
  const warnings = [...mail.warnings];
  if (mail.encrypted) warnings.push('the message is encrypted: only its headers were indexed');
  return { kind, title: mail.subject, units: [unit], pageCount: 1, warnings, children: mail.attachments };
}

function safeName(name: string | undefined | null, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).pop()?.trim() ?? '';
  return base || fallback;
}

export async function parseEml(bytes: Uint8Array): Promise<ParsedDocument> {
  let parsed: Awaited<ReturnType<typeof simpleParser>>;
  try {
    parsed = await simpleParser(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      skipImageLinks: true,
      skipTextLinks: true,
      maxHtmlLengthToParse: 10 * 1024 * 1024,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new IngestError('malformed', `malformed e-mail: ${message.slice(0, 300)}`, { cause: error });
  }
  const contentType = parsed.headers.get('content-type');
  const rootType =
    typeof contentType === 'object' && contentType && 'value' in contentType ? String(contentType.value) : '';
  const encrypted = /^multipart\/encrypted$/i.test(rootType) || /pkcs7-mime/i.test(rootType);
  const warnings: string[] = [];
  const files: ChildFile[] = [];
  if (!encrypted) {
    parsed.attachments.forEach((attachment, i) => {
      if (attachment.related && attachment.contentType.startsWith('image/')) return;
      if (CRYPTO_PART.test(attachment.contentType) || CRYPTO_NAME.test(attachment.filename ?? '')) return;
      files.push({
        filename: safeName(attachment.filename, `attachment-${i + 1}`),
        declaredMime: attachment.contentType || null,
        bytes: new Uint8Array(attachment.content),
      });
    });
  }
  const addressText = (value: typeof parsed.to): string | null => {
    if (!value) return null;
    const list = Array.isArray(value) ? value : [value];
    return list.map((v) => v.text).join(', ') || null;
  };
  const body = parsed.text?.trim() ? parsed.text : typeof parsed.html === 'string' ? htmlToText(parsed.html) : '';
  return mailDocument('eml', {
    subject: parsed.subject?.trim() || null,
    from: addressText(parsed.from),
    to: addressText(parsed.to),
    cc: addressText(parsed.cc),
    date: parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date.toISOString() : null,
    body: encrypted ? '' : body,
    attachments: capAttachments(files, warnings),
    warnings,
    encrypted,
  });
}

export function parseMsg(bytes: Uint8Array): ParsedDocument {
  let reader: MsgReader;
  let data: ReturnType<MsgReader['getFileData']>;
  try {
    const copy = new Uint8Array(bytes);
    reader = new MsgReader(copy.buffer);
    data = reader.getFileData();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new IngestError('malformed', `malformed MSG: ${message.slice(0, 300)}`, { cause: error });
  }
  if (data.error) throw new IngestError('malformed', `malformed MSG: ${String(data.error).slice(0, 300)}`);
  const warnings: string[] = [];
  const files: ChildFile[] = [];
  let encrypted = false;
  (data.attachments ?? []).forEach((attachment, i) => {
    const name = attachment.fileName ?? attachment.fileNameShort ?? attachment.name;
    const mime = attachment.attachMimeTag ?? null;
    if ((mime && CRYPTO_PART.test(mime)) || CRYPTO_NAME.test(name ?? '')) {
      encrypted = true;
      return;
    }
    if (attachment.innerMsgContent) {
      warnings.push(`embedded message ${name ?? i + 1} not ingested`);
      return;
    }
    try {
      const content = reader.getAttachment(attachment);
      files.push({
        filename: safeName(content.fileName || name, `attachment-${i + 1}`),
        declaredMime: mime,
        bytes: content.content,
      });
    } catch (error) {
      warnings.push(
        `attachment ${name ?? i + 1}: ${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'}`,
      );
    }
  });
  const recipients = (kinds: string[]) =>
    (data.recipients ?? [])
      .filter((r) => kinds.includes(String(r.recipType ?? 'to')))
      .map((r) => (r.name && r.email && r.name !== r.email ? `${r.name} <${r.email}>` : (r.email ?? r.name ?? '')))
      .filter((s) => s !== '')
      .join(', ') || null;
  const from =
    data.senderName && data.senderEmail && data.senderName !== data.senderEmail
      ? `${data.senderName} <${data.senderEmail}>`
      : (data.senderEmail ?? data.senderName ?? null);
  const html = data.bodyHtml ?? (data.html ? new TextDecoder().decode(data.html) : '');
  const body = data.body?.trim() ? data.body : html ? htmlToText(html) : '';
  const date = data.messageDeliveryTime ?? data.clientSubmitTime ?? null;
  const parsedDate = date ? new Date(date) : null;
  return mailDocument('msg', {
    subject: data.subject?.trim() || null,
    from,
    to: recipients(['to']),
    cc: recipients(['cc']),
    date: parsedDate && !Number.isNaN(parsedDate.getTime()) ? parsedDate.toISOString() : null,
    body,
    // The other parts of an encrypted message (a PGP version part, the ciphertext) are not documents.
    attachments: encrypted ? [] : capAttachments(files, warnings),
    warnings,
    encrypted: encrypted && !body.trim(),
  });
}
