/**
 * ZIP archive → its members as child files (each ingested as a document of its own), and one unit listing them so
 * the archive itself is findable by its contents' names. Unpacked under the zip guard's limits (entry count,
 * declared and inflated bytes, compression ratio); folders, hidden files and macOS resource forks are skipped.
 */

import path from 'node:path';
import { IngestError } from '../errors';
import type { ChildFile, ParsedDocument } from '../types';
import { inspectZip, type ZipLimits } from '../zip-guard';

/** Most members taken from one archive; the rest are named in a warning. */
export const MAX_ARCHIVE_MEMBERS = 200;

function isContent(name: string): boolean {
  if (name.endsWith('/')) return false;
  const parts = name.split('/');
  if (parts.some((p) => p === '__MACOSX' || p === '..')) return false;
  const base = parts[parts.length - 1] ?? '';
  return base !== '' && !base.startsWith('.') && base !== 'Thumbs.db' && base !== 'desktop.ini';
}

function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

export async function parseZipArchive(
  bytes: Uint8Array,
  filename: string,
  options: { zipLimits?: Partial<ZipLimits> } = {},
): Promise<ParsedDocument> {
  const { entries, files } = await inspectZip(bytes, {
    limits: options.zipLimits,
    scanXml: false,
    keepBytes: isContent,
  });
  const members = entries.filter((e) => isContent(e.name));
  if (members.length === 0) throw new IngestError('no-text', 'no extractable text (the archive has no files)');
  const warnings: string[] = [];
  const children: ChildFile[] = [];
  for (const member of members) {
    const content = files.get(member.name);
    if (!content || content.byteLength === 0) continue;
    if (children.length >= MAX_ARCHIVE_MEMBERS) {
      warnings.push(`member ${member.name} not ingested (over ${MAX_ARCHIVE_MEMBERS} files)`);
      continue;
    }
    children.push({ filename: path.posix.basename(member.name), declaredMime: null, bytes: content });
  }
  const listing = members.map((m) => `- ${m.name} (${sizeLabel(m.uncompressedSize)})`).join('\n');
  const text = `Archive ${filename} contains ${members.length} file${members.length === 1 ? '' : 's'}:\n${listing}`;
  return {
    kind: 'zip',
    title: null,
    units: [{ ordinal: 0, page: null, sheet: null, headingPath: [], text }],
    pageCount: 1,
    warnings,
    children,
  };
}
