/**
 * Turns the child files a parse returned (e-mail attachments, archive members) into queued documents of the same
 * owner and bucket. Each is stored under a generated name, sniffed like an upload and deduplicated by content;
 * one that cannot be indexed (an executable, an unsupported type) is not created but named in a warning on the
 * parent, so the owner sees what was left out.
 */

import { createHash } from 'node:crypto';
import { createChildDocument } from '@/lib/db/document-children';
import { findDocumentIdBySha256 } from '@/lib/db/documents';
import { sniffFile } from './sniff';
import { cleanDisplayName, deleteStoredFile, saveUploadStream } from './storage';
import type { ChildFile } from './types';

/** Children of children are created; their own children are not (see MAX_CHILD_DEPTH). */
export const MAX_CHILD_DEPTH = 2;
const MAX_CHILD_BYTES = 256 * 1024 * 1024;

export async function registerChildFiles(
  parent: { id: string; ownerId: string; bucketId: string | null },
  children: readonly ChildFile[],
): Promise<{ created: string[]; warnings: string[] }> {
  const created: string[] = [];
  const warnings: string[] = [];
  for (const child of children) {
    const filename = cleanDisplayName(child.filename);
    const sha256 = createHash('sha256').update(child.bytes).digest('hex');
    if (await findDocumentIdBySha256({ ownerId: parent.ownerId, sha256 })) continue;
    const sniffed = await sniffFile({ bytes: child.bytes, filename, declaredMime: child.declaredMime });
    if ('error' in sniffed) {
      warnings.push(`${filename} not ingested: ${sniffed.error}`);
      continue;
    }
    const bytes = child.bytes;
    const stored = await saveUploadStream({
      body: (async function* () {
        yield bytes;
      })(),
      maxBytes: MAX_CHILD_BYTES,
    });
    const id = await createChildDocument({
      ownerId: parent.ownerId,
      parentId: parent.id,
      bucketId: parent.bucketId,
      filename,
      storedName: stored.storedName,
      mime: sniffed.mime,
      size: stored.size,
      sha256: stored.sha256,
    });
    if (id) created.push(id);
    else await deleteStoredFile(stored.storedName);
  }
  return { created, warnings };
}
