import { getDb } from '@/lib/db/client';

/** What one owner stores: bytes of uploaded files and number of documents (every status counts). */
export interface StorageUsage {
  bytes: number;
  documents: number;
}

/** The owner's storage usage, for the per-user quota. */
export async function readStorageUsage({ ownerId }: { ownerId: string }): Promise<StorageUsage> {
  const totals = await getDb().document.aggregate({ where: { ownerId }, _sum: { size: true }, _count: true });
  return { bytes: Number(totals._sum.size ?? 0), documents: totals._count };
}
