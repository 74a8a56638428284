// POST /api/documents/upload – stream one file (raw body) to disk within the owner's storage quota, sniff it,
// dedupe by sha256, queue it
import { withUser } from '@/lib/auth/with-user';
import { getConfig } from '@/lib/config';
import { checkUploadQuota, confirmStoredUploadFits, quotaExceeded } from '@/lib/documents/quota';
import { AppError } from '@/lib/errors';
import { apiRoutes } from '@/lib/http/api-routes';
import { uploadHeadersSchema } from '@/lib/http/api-schemas';
import { parseBucketId, registerUpload } from '@/lib/ingest/intake';
import { deleteStoredFile, saveUploadStream } from '@/lib/ingest/storage';
import { enforceRateLimit } from '@/lib/rate-limit';
import { kickIngestWorker } from '@/lib/services';

export const dynamic = 'force-dynamic';

export const POST = withUser(apiRoutes['POST /api/documents/upload'], async (request, { user }) => {
  const config = getConfig();
  await enforceRateLimit({
    userId: user.id,
    action: 'upload',
    max: config.rateLimits.uploadsPerMinute,
    surface: 'upload',
  });
  const headers = uploadHeadersSchema.parse({
    fileName: safeDecode(request.headers.get('x-file-name') ?? ''),
    contentType: request.headers.get('content-type'),
    bucketId: request.headers.get('x-bucket-id'),
    contentLength: request.headers.get('content-length'),
  });
  const bucketId = parseBucketId(headers.bucketId);
  if (headers.contentLength !== null && headers.contentLength > config.ingest.maxUploadBytes) {
    throw new AppError(
      'payload_too_large:upload',
      `The file is larger than the ${Math.round(config.ingest.maxUploadBytes / 1024 / 1024)} MB limit per file.`,
    );
  }
  if (!request.body) throw new AppError('bad_request:upload', 'The request has no file content.');
  const { usage, remainingBytes } = await checkUploadQuota({
    ownerId: user.id,
    quota: config.quota,
    declaredBytes: headers.contentLength,
  });
  const quotaBound = remainingBytes < config.ingest.maxUploadBytes;
  const stored = await saveUploadStream({
    body: request.body,
    maxBytes: Math.min(config.ingest.maxUploadBytes, remainingBytes),
    signal: request.signal,
    ...(quotaBound ? { tooLarge: () => quotaExceeded(usage, config.quota, null) } : {}),
  });
  try {
    await confirmStoredUploadFits({ ownerId: user.id, quota: config.quota, storedBytes: stored.size });
  } catch (error) {
    await deleteStoredFile(stored.storedName).catch(() => {});
    throw error;
  }
  const result = await registerUpload({
    ownerId: user.id,
    stored,
    filename: headers.fileName,
    declaredMime: headers.contentType,
    bucketId,
  });
  if (!result.duplicate) kickIngestWorker();
  return Response.json(result, { status: result.duplicate ? 200 : 201 });
});

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
