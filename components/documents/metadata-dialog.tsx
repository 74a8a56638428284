'use client';

import clsx from 'clsx';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { useReportError } from '@/components/error-toaster';
import { PlusIcon, XIcon } from '@/components/icons';
import { Button } from '@/components/ui/button';
import { fetchJson } from '@/lib/client/fetch-json';
import type { BucketSummary } from '@/lib/db/buckets';
import type { DocumentSummary } from '@/lib/db/documents';
import { AppError } from '@/lib/errors';
import { describeIndexed, fileKind, fileKindLabel, formatBytes, formatDate, statusLabel } from './document-view';
import {
  addTags,
  draftFromMetadata,
  errorsFromServer,
  FIELD_KEY_MAX,
  FIELD_VALUE_MAX,
  type MetadataDraft,
  type MetadataErrors,
  newRowId,
  TITLE_MAX,
  validateMetadataDraft,
} from './metadata-form';
import { Modal } from './modal';
import { TypedValuesSection } from './typed-values-section';

const inputClass =
  'w-full rounded-md border bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2';

function fieldClass(invalid: boolean): string {
  return clsx(
    inputClass,
    invalid
      ? 'border-red-400 focus:border-red-500 focus:ring-red-200'
      : 'border-slate-300 focus:border-brand-500 focus:ring-brand-200',
  );
}

function ErrorText({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-xs text-red-700">
      {message}
    </p>
  );
}

/**
 * The details editor of one document: title, document date, tags (chips), free key/value fields and its bucket,
 * validated inline (the server's 422 messages land on the same fields) and saved with one PATCH.
 */
export function MetadataDialog({
  doc,
  buckets,
  onClose,
  onSaved,
}: {
  doc: DocumentSummary;
  buckets: readonly BucketSummary[];
  onClose: () => void;
  onSaved: (doc: DocumentSummary) => void;
}) {
  const reportError = useReportError();
  const ids = {
    title: useId(),
    titleError: useId(),
    date: useId(),
    dateError: useId(),
    tags: useId(),
    tagsError: useId(),
    bucket: useId(),
    fieldsError: useId(),
    form: useId(),
  };
  const [draft, setDraft] = useState<MetadataDraft>(() => draftFromMetadata(doc.metadata));
  const [bucketId, setBucketId] = useState<string | null>(doc.bucketId);
  const [errors, setErrors] = useState<MetadataErrors>({ fields: {} });
  const [saving, setSaving] = useState(false);

  function change(patch: Partial<MetadataDraft>) {
    setDraft((d) => ({ ...d, ...patch }));
  }

  function commitPendingTag() {
    if (!draft.pendingTag.trim()) return;
    const result = addTags(draft.tags, draft.pendingTag);
    change({ tags: result.tags, pendingTag: result.error ? draft.pendingTag : '' });
    setErrors((e) => ({ ...e, tags: result.error }));
  }

  function onTagKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      commitPendingTag();
    } else if (event.key === 'Backspace' && draft.pendingTag === '' && draft.tags.length > 0) {
      change({ tags: draft.tags.slice(0, -1) });
    }
  }

  function updateField(rowId: string, patch: { key?: string; value?: string }) {
    change({ fields: draft.fields.map((f) => (f.rowId === rowId ? { ...f, ...patch } : f)) });
    setErrors((e) => {
      if (!e.fields[rowId]) return e;
      const { [rowId]: _gone, ...rest } = e.fields;
      return { ...e, fields: rest };
    });
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const result = validateMetadataDraft(draft);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({ fields: {} });
    setSaving(true);
    try {
      const { document } = await fetchJson<{ document: DocumentSummary }>(`/api/documents/${doc.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          metadata: result.metadata,
          ...(bucketId !== doc.bucketId ? { bucketId } : {}),
        }),
      });
      onSaved(document);
    } catch (error) {
      const mapped = error instanceof AppError ? errorsFromServer(error.details) : null;
      if (mapped) setErrors(mapped);
      else reportError(error);
    } finally {
      setSaving(false);
    }
  }

  const kind = fileKind(doc.mime, doc.filename);
  const facts: [string, string][] = [
    ['Type', fileKindLabel(kind)],
    ['Size', formatBytes(doc.size)],
    ['Status', statusLabel(doc.status)],
    ...(doc.status === 'INDEXED' ? ([['Indexed', describeIndexed(doc) || '—']] as [string, string][]) : []),
    ['Uploaded', formatDate(doc.createdAt)],
    [
      'Search',
      doc.status !== 'INDEXED'
        ? '—'
        : doc.vectorsPending
          ? 'Keywords only (vectors pending)'
          : `Keywords and meaning${doc.embeddingModel ? ` (${doc.embeddingModel})` : ''}`,
    ],
  ];

  return (
    <Modal
      title="Document details"
      description={
        <span className="block truncate" title={doc.filename}>
          <bdi>{doc.filename}</bdi>
        </span>
      }
      onClose={() => {
        if (!saving) onClose();
      }}
      size="lg"
      testId="metadata-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" form={ids.form} disabled={saving}>
            {saving ? 'Saving…' : 'Save details'}
          </Button>
        </>
      }
    >
      <form id={ids.form} onSubmit={save} noValidate className="flex flex-col gap-5">
        <dl className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-lg bg-slate-50 px-4 py-3 text-xs sm:grid-cols-3">
          {facts.map(([term, value]) => (
            <div key={term} className="min-w-0">
              <dt className="text-slate-500">{term}</dt>
              <dd className="truncate font-medium text-slate-800" title={value}>
                {value}
              </dd>
            </div>
          ))}
        </dl>

        <div>
          <label htmlFor={ids.title} className="text-sm font-medium text-slate-700">
            Title
          </label>
          <input
            id={ids.title}
            data-autofocus
            value={draft.title}
            onChange={(event) => {
              change({ title: event.target.value });
              setErrors((e) => ({ ...e, title: undefined }));
            }}
            placeholder="A readable title used in answers and citations"
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={errors.title ? ids.titleError : undefined}
            className={clsx('mt-1.5', fieldClass(Boolean(errors.title)))}
          />
          <div className="flex justify-between gap-2">
            <ErrorText id={ids.titleError} message={errors.title} />
            {draft.title.length > TITLE_MAX - 40 ? (
              <p className="mt-1 ml-auto text-xs text-slate-500 tabular-nums">
                {draft.title.trim().length}/{TITLE_MAX}
              </p>
            ) : null}
          </div>
        </div>

        <div className="grid gap-5 sm:grid-cols-2">
          <div>
            <label htmlFor={ids.date} className="text-sm font-medium text-slate-700">
              Document date
            </label>
            <input
              id={ids.date}
              type="date"
              value={draft.documentDate}
              onChange={(event) => {
                change({ documentDate: event.target.value });
                setErrors((e) => ({ ...e, documentDate: undefined }));
              }}
              aria-invalid={errors.documentDate ? true : undefined}
              aria-describedby={errors.documentDate ? ids.dateError : undefined}
              className={clsx('mt-1.5', fieldClass(Boolean(errors.documentDate)))}
            />
            <ErrorText id={ids.dateError} message={errors.documentDate} />
          </div>
          <div>
            <label htmlFor={ids.bucket} className="text-sm font-medium text-slate-700">
              Bucket
            </label>
            <select
              id={ids.bucket}
              value={bucketId ?? ''}
              onChange={(event) => setBucketId(event.target.value || null)}
              className={clsx('mt-1.5', fieldClass(false))}
            >
              <option value="">No bucket</option>
              {buckets.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </select>
          </div>
        </div>

        <div>
          <label htmlFor={ids.tags} className="text-sm font-medium text-slate-700">
            Tags
          </label>
          <div
            className={clsx(
              'mt-1.5 flex flex-wrap items-center gap-1.5 rounded-md border bg-white px-2 py-1.5 shadow-sm focus-within:ring-2',
              errors.tags
                ? 'border-red-400 focus-within:ring-red-200'
                : 'border-slate-300 focus-within:border-brand-500 focus-within:ring-brand-200',
            )}
          >
            <ul className="contents">
              {draft.tags.map((tag) => (
                <li
                  key={tag}
                  className="inline-flex max-w-full items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-700 ring-1 ring-inset ring-brand-200"
                  data-testid="tag-chip"
                >
                  <bdi className="max-w-[14rem] truncate" title={tag}>
                    {tag}
                  </bdi>
                  <button
                    type="button"
                    onClick={() => change({ tags: draft.tags.filter((t) => t !== tag) })}
                    className="rounded-full p-0.5 text-brand-500 hover:bg-brand-100 hover:text-brand-800"
                    aria-label={`Remove tag ${tag}`}
                  >
                    <XIcon className="h-3 w-3" />
                  </button>
                </li>
              ))}
            </ul>
            <input
              id={ids.tags}
              value={draft.pendingTag}
              onChange={(event) => {
                change({ pendingTag: event.target.value });
                setErrors((e) => ({ ...e, tags: undefined }));
              }}
              onKeyDown={onTagKey}
              onBlur={commitPendingTag}
              placeholder={draft.tags.length === 0 ? 'Type a tag and press Enter' : 'Add a tag'}
              aria-invalid={errors.tags ? true : undefined}
              aria-describedby={errors.tags ? ids.tagsError : undefined}
              className="min-w-[8rem] flex-1 border-0 bg-transparent px-1 py-0.5 text-sm placeholder:text-slate-400 focus:outline-none"
            />
          </div>
          {errors.tags ? (
            <ErrorText id={ids.tagsError} message={errors.tags} />
          ) : (
            <p className="mt-1 text-xs text-slate-500">Press Enter or comma to add. Chat can filter by tag.</p>
          )}
        </div>

        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Fields</legend>
          <p className="mt-0.5 text-xs text-slate-500">
            Your own facts about the document, e.g. Client → ACME, Contract no. → 2024-117.
          </p>
          {draft.fields.length > 0 ? (
            <ul className="mt-2 flex flex-col gap-2">
              {draft.fields.map((row, index) => {
                const rowErrors = errors.fields[row.rowId];
                const errorId = `${row.rowId}-error`;
                return (
                  <li key={row.rowId} data-testid="metadata-field-row">
                    <div className="flex items-start gap-2">
                      <input
                        value={row.key}
                        onChange={(event) => updateField(row.rowId, { key: event.target.value })}
                        aria-label={`Field ${index + 1} name`}
                        placeholder="Name"
                        maxLength={FIELD_KEY_MAX + 20}
                        aria-invalid={rowErrors?.key ? true : undefined}
                        aria-describedby={rowErrors ? errorId : undefined}
                        className={clsx('w-2/5', fieldClass(Boolean(rowErrors?.key)))}
                      />
                      <input
                        value={row.value}
                        onChange={(event) => updateField(row.rowId, { value: event.target.value })}
                        aria-label={`Field ${index + 1} value`}
                        placeholder="Value"
                        maxLength={FIELD_VALUE_MAX + 100}
                        aria-invalid={rowErrors?.value ? true : undefined}
                        aria-describedby={rowErrors ? errorId : undefined}
                        className={clsx('min-w-0 flex-1', fieldClass(Boolean(rowErrors?.value)))}
                      />
                      <button
                        type="button"
                        onClick={() => change({ fields: draft.fields.filter((f) => f.rowId !== row.rowId) })}
                        className="mt-1 rounded-md p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
                        aria-label={`Remove field ${index + 1}`}
                      >
                        <XIcon />
                      </button>
                    </div>
                    {rowErrors ? (
                      <p id={errorId} className="mt-1 text-xs text-red-700">
                        {[rowErrors.key, rowErrors.value].filter(Boolean).join(' ')}
                      </p>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          ) : null}
          <Button
            size="sm"
            variant="secondary"
            className="mt-2"
            onClick={() => change({ fields: [...draft.fields, { rowId: newRowId(), key: '', value: '' }] })}
          >
            <PlusIcon className="h-3.5 w-3.5" />
            Add field
          </Button>
          <ErrorText id={ids.fieldsError} message={errors.fieldsGeneral} />
        </fieldset>
        <TypedValuesSection documentId={doc.id} bucketId={doc.bucketId} />
      </form>
    </Modal>
  );
}
