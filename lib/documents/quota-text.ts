/**
 * How storage usage and the per-user quota read, in the Documents page and in the upload route's refusal
 * ("1.2 GB of 5 GB · 140 of 10,000 documents"). Pure: usable in the browser and on the server.
 */

export interface StorageQuota {
  maxBytes: number;
  maxDocuments: number;
}

export interface StorageUsageFigures {
  bytes: number;
  documents: number;
}

const UNITS: [string, number][] = [
  ['TB', 1024 ** 4],
  ['GB', 1024 ** 3],
  ['MB', 1024 ** 2],
  ['KB', 1024],
];

const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Bytes in binary units with at most one decimal: "1.2 GB", "5 GB", "340 MB", "0 bytes". */
export function formatStorageBytes(bytes: number): string {
  const value = Math.max(0, bytes);
  for (const [unit, size] of UNITS) {
    if (value >= size) return `${oneDecimal.format(Math.floor((value / size) * 10) / 10)} ${unit}`;
  }
  return `${whole.format(value)} ${value === 1 ? 'byte' : 'bytes'}`;
}

/** "1.2 GB of 5 GB · 140 of 10,000 documents". */
export function describeStorageUsage(usage: StorageUsageFigures, quota: StorageQuota): string {
  const noun = quota.maxDocuments === 1 ? 'document' : 'documents';
  return `${formatStorageBytes(usage.bytes)} of ${formatStorageBytes(quota.maxBytes)} · ${whole.format(usage.documents)} of ${whole.format(quota.maxDocuments)} ${noun}`;
}

/** Share of the quota in use, 0..1: the larger of the bytes and the document shares. */
export function storageUsageShare(usage: StorageUsageFigures, quota: StorageQuota): number {
  const share = Math.max(usage.bytes / quota.maxBytes, usage.documents / quota.maxDocuments);
  return Math.min(1, Math.max(0, share));
}
