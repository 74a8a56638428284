import type { ReactNode } from 'react';
import type { DocumentDetail } from '@/lib/db/document-view';
import { usableTitle } from './display-title';
import {
  fileKind,
  fileKindLabel,
  formatBytes,
  formatDate,
  formatTimestamp,
  isRunning,
  plural,
  statusLabel,
  unitNoun,
} from './document-view';
import { failureAdvice } from './failure-advice';
import { StageText } from './stage-text';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-3 py-1.5 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-slate-800">{children}</dd>
    </div>
  );
}

function Card({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm" data-testid={testId}>
      <h2 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">{title}</h2>
      <dl className="divide-y divide-slate-100">{children}</dl>
    </section>
  );
}

function When({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatTimestamp(iso)}</time>;
}

/**
 * What is known about a document: its processing record (status, stage, attempts, the failure and what to do about
 * it, timestamps), its metadata and its file. Only fields the data model holds; nothing is estimated.
 */
export function DocumentDetails({ doc }: { doc: DocumentDetail }) {
  const kind = fileKind(doc.mime, doc.filename);
  const { title, documentDate, tags, fields } = doc.metadata;
  const shownTitle = usableTitle({ filename: doc.filename, title });
  const advice = doc.status === 'FAILED' ? failureAdvice(doc) : null;
  const fieldEntries = Object.entries(fields);
  return (
    <div className="flex flex-col gap-4">
      <Card title="Processing" testId="document-processing">
        <Row label="Status">
          <span data-testid="detail-status">{statusLabel(doc.status)}</span>
          {isRunning(doc) && doc.status === 'PROCESSING' ? (
            <span className="text-slate-500">
              {' '}
              · <StageText stage={doc.stage} />
            </span>
          ) : null}
        </Row>
        {doc.status === 'FAILED' ? (
          <Row label="Reason">
            <span className="text-red-700" data-testid="detail-error">
              {doc.error ?? 'Processing failed for an unknown reason.'}
            </span>
            {advice ? (
              <span className="mt-1 block text-slate-600" data-testid="detail-advice">
                {advice.retry ? 'Retry from the Documents page. ' : 'Retrying will not help. '}
                {advice.advice}
              </span>
            ) : null}
          </Row>
        ) : doc.error ? (
          <Row label="Note">{doc.error}</Row>
        ) : null}
        <Row label="Attempts">{doc.attempts}</Row>
        <Row label="Uploaded">
          <When iso={doc.createdAt} />
        </Row>
        {doc.indexedAt ? (
          <Row label="Indexed">
            <When iso={doc.indexedAt} />
          </Row>
        ) : null}
        <Row label="Last change">
          <When iso={doc.updatedAt} />
        </Row>
        {doc.retryAt && doc.status === 'PENDING' ? (
          <Row label="Resumes after">
            <When iso={doc.retryAt} />
          </Row>
        ) : null}
        {doc.status === 'INDEXED' ? (
          <Row label="Search">
            {doc.embeddingModel ? (
              <>
                Keywords and meaning <span className="text-slate-500">({doc.embeddingModel})</span>
              </>
            ) : (
              'Keywords only (no vectors yet)'
            )}
          </Row>
        ) : null}
      </Card>

      <Card title="Details" testId="document-metadata">
        <Row label="Title">
          {title ? (
            <>
              <bdi>{title}</bdi>
              {shownTitle ? null : (
                <span className="block text-xs text-slate-500">
                  Not used as the name: it reads like a file name or a placeholder.
                </span>
              )}
            </>
          ) : (
            <span className="text-slate-400">None</span>
          )}
        </Row>
        <Row label="Date">{documentDate ? formatDate(documentDate) : <span className="text-slate-400">None</span>}</Row>
        <Row label="Tags">
          {tags.length > 0 ? (
            <ul className="flex flex-wrap gap-1" aria-label="Tags">
              {tags.map((tag) => (
                <li
                  key={tag}
                  className="rounded-full bg-brand-50 px-2 py-px text-xs font-medium text-brand-700 ring-1 ring-brand-100 ring-inset"
                >
                  <bdi>{tag}</bdi>
                </li>
              ))}
            </ul>
          ) : (
            <span className="text-slate-400">None</span>
          )}
        </Row>
        {fieldEntries.map(([name, value]) => (
          <Row key={name} label={name}>
            <bdi>{value}</bdi>
          </Row>
        ))}
      </Card>

      <Card title="File" testId="document-file">
        <Row label="Name">
          <bdi>{doc.filename}</bdi>
        </Row>
        <Row label="Type">
          {fileKindLabel(kind)} <span className="text-slate-500">({doc.mime})</span>
        </Row>
        <Row label="Size">{formatBytes(doc.size)}</Row>
        {doc.pageCount !== null ? (
          <Row label="Contents">
            {plural(doc.pageCount, unitNoun(doc.mime))}
            {doc.chunkCount !== null ? ` · ${plural(doc.chunkCount, 'chunk')}` : ''}
          </Row>
        ) : null}
        <Row label="SHA-256">
          <span className="font-mono text-xs break-all text-slate-600">{doc.sha256}</span>
        </Row>
      </Card>
    </div>
  );
}
