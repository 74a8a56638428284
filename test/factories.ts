import crypto from 'node:crypto';
import { getDb } from '@/lib/db/client';

/** Test data builders over the real database (integration tests only). */

export async function createTestUser(label = 'user') {
  const id = crypto.randomUUID();
  const email = `${label}-${id.slice(0, 8)}@example.test`;
  await getDb().user.create({ data: { id, email, name: label, emailVerified: false } });
  return { id, email };
}

export async function createTestDocument(
  ownerId: string,
  overrides: Partial<{
    status: 'PENDING' | 'PROCESSING' | 'INDEXED' | 'FAILED';
    filename: string;
    bucketId: string | null;
    createdAt: Date;
    lockedAt: Date | null;
    attempts: number;
  }> = {},
) {
  const sha256 = crypto.randomBytes(32).toString('hex');
  return getDb().document.create({
    data: {
      ownerId,
      filename: overrides.filename ?? `doc-${sha256.slice(0, 6)}.txt`,
      storedName: crypto.randomBytes(16).toString('hex'),
      mime: 'text/plain',
      size: 10,
      sha256,
      status: overrides.status ?? 'PENDING',
      bucketId: overrides.bucketId ?? null,
      metadata: { title: null, documentDate: null, tags: [], fields: {} },
      ...(overrides.createdAt ? { createdAt: overrides.createdAt } : {}),
      ...(overrides.lockedAt !== undefined ? { lockedAt: overrides.lockedAt } : {}),
      ...(overrides.attempts !== undefined ? { attempts: overrides.attempts } : {}),
    },
  });
}
