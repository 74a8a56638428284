import { describeStorageUsage, type StorageQuota, storageUsageShare } from '@/lib/documents/quota-text';

/**
 * The owner's storage use against the per-user quota, from the documents the page already holds (so it follows
 * uploads and deletes live): "1.2 GB of 5 GB · 140 of 10,000 documents" over a thin bar that turns amber past
 * 80 % and red when full.
 */
export function StorageUsage({ documents, quota }: { documents: readonly { size: number }[]; quota: StorageQuota }) {
  const usage = { bytes: documents.reduce((sum, d) => sum + d.size, 0), documents: documents.length };
  const share = storageUsageShare(usage, quota);
  const percent = Math.round(share * 100);
  const tone = share >= 1 ? 'bg-red-500' : share >= 0.8 ? 'bg-amber-500' : 'bg-brand-500';
  const text = describeStorageUsage(usage, quota);
  return (
    <div className="flex min-w-56 flex-col gap-1 text-xs text-slate-600" data-testid="storage-usage">
      <span>
        <span className="sr-only">Storage used: </span>
        {text}
      </span>
      {/* decorative: the text above says the same */}
      <div className="h-1.5 w-full overflow-hidden rounded-full bg-slate-200" aria-hidden="true">
        <div
          className={`h-full rounded-full ${tone}`}
          style={{ width: `${Math.max(percent, usage.documents ? 1 : 0)}%` }}
        />
      </div>
    </div>
  );
}
