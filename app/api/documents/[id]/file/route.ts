// GET /api/documents/:id/file – the original file, for the viewer (inline for PDFs, a download otherwise)
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { withUser } from '@/lib/auth/with-user';
import { findStoredFile } from '@/lib/db/documents';
import { AppError } from '@/lib/errors';
import { apiRoutes } from '@/lib/http/api-routes';
import { storedFilePath } from '@/lib/ingest/storage';

export const GET = withUser<{ id: string }>(
  apiRoutes['GET /api/documents/{id}/file'],
  async (_request, { user, params }) => {
    const doc = await findStoredFile({ ownerId: user.id, id: params.id });
    if (!doc) throw new AppError('not_found:document', 'Document not found.');
    const file = storedFilePath(doc.storedName);
    if (!fs.existsSync(file)) throw new AppError('not_found:document', 'The stored file is missing.');
    const inline = doc.mime === 'application/pdf';
    const asciiName = doc.filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
    return new Response(Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>, {
      headers: {
        // PDFs render in the viewer; everything else downloads as an opaque file, never rendered by the browser.
        'content-type': inline ? 'application/pdf' : 'application/octet-stream',
        'content-length': String(doc.size),
        'content-disposition': `${inline ? 'inline' : 'attachment'}; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(doc.filename)}`,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'cache-control': 'private, no-store',
      },
    });
  },
);
