'use client';

import { useEffect, useId, useState } from 'react';
import { PlusIcon, XIcon } from '@/components/icons';
import { Button } from '@/components/ui/button';
import { fetchJson } from '@/lib/client/fetch-json';
import type { BucketSummary } from '@/lib/db/buckets';
import { type BucketMetaSchema, META_FIELD_TYPES, type MetaFieldType } from '@/lib/domain/typed-meta';
import { AppError } from '@/lib/errors';
import { Modal } from './modal';

interface Row {
  rowId: string;
  name: string;
  type: MetaFieldType;
  required: boolean;
  /** Enum values, comma-separated while edited. */
  values: string;
  pattern: string;
  label: string;
}

let nextRow = 0;
const newRow = (): Row => ({
  rowId: `schema-row-${++nextRow}`,
  name: '',
  type: 'string',
  required: false,
  values: '',
  pattern: '',
  label: '',
});

function toSchema(rows: readonly Row[]): BucketMetaSchema {
  return {
    fields: rows.map((r) => ({
      name: r.name.trim(),
      type: r.type,
      required: r.required,
      ...(r.type === 'enum'
        ? {
            values: r.values
              .split(',')
              .map((v) => v.trim())
              .filter(Boolean),
          }
        : {}),
      ...(r.type === 'string' && r.pattern.trim() ? { pattern: r.pattern.trim() } : {}),
      ...(r.label.trim() ? { label: r.label.trim() } : {}),
    })),
  };
}

const fieldClass =
  'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none';

/**
 * The bucket's typed fields (name, type, required, enum values, extraction pattern, label): loaded from and saved
 * to /api/buckets/:id/schema. The server validates; its message is shown as is.
 */
export function BucketSchemaDialog({ bucket, onClose }: { bucket: BucketSummary; onClose: () => void }) {
  const formId = useId();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    fetchJson<{ schema: BucketMetaSchema }>(`/api/buckets/${bucket.id}/schema`)
      .then(({ schema }) => {
        if (!live) return;
        setRows(
          schema.fields.map((f) => ({
            ...newRow(),
            name: f.name,
            type: f.type,
            required: f.required,
            values: (f.values ?? []).join(', '),
            pattern: f.pattern ?? '',
            label: f.label ?? '',
          })),
        );
      })
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : 'Could not load the fields.'));
    return () => {
      live = false;
    };
  }, [bucket.id]);

  const update = (rowId: string, patch: Partial<Row>) => {
    setRows((current) => (current ?? []).map((r) => (r.rowId === rowId ? { ...r, ...patch } : r)));
    setError(null);
  };

  async function save() {
    if (!rows) return;
    setSaving(true);
    try {
      await fetchJson(`/api/buckets/${bucket.id}/schema`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(toSchema(rows)),
      });
      onClose();
    } catch (e) {
      const fields = e instanceof AppError ? (e.fields ?? []).map((f) => `${f.path}: ${f.message}`).join(' ') : '';
      setError(fields || (e instanceof Error ? e.message : 'Could not save the fields.'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      title={`Typed fields of ${bucket.name}`}
      description="Chat can filter this bucket's documents on these fields (e.g. total_amount > 1000). Values are read from each document at ingest and can be edited in its details."
      onClose={() => !saving && onClose()}
      size="lg"
      testId="bucket-schema-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button onClick={save} disabled={saving || rows === null}>
            {saving ? 'Saving…' : 'Save fields'}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={(e) => e.preventDefault()} className="flex flex-col gap-2">
        {rows === null && !error ? <p className="text-sm text-slate-500">Loading…</p> : null}
        {(rows ?? []).map((row, index) => (
          <fieldset
            key={row.rowId}
            className="rounded-lg bg-slate-50 p-2 ring-1 ring-slate-200"
            data-testid="schema-row"
          >
            <legend className="sr-only">Field {index + 1}</legend>
            <div className="flex flex-wrap items-center gap-2">
              <input
                aria-label={`Field ${index + 1} name`}
                placeholder="name, e.g. total_amount"
                value={row.name}
                onChange={(e) => update(row.rowId, { name: e.target.value })}
                className={`min-w-0 flex-1 font-mono ${fieldClass}`}
              />
              <select
                aria-label={`Field ${index + 1} type`}
                value={row.type}
                onChange={(e) => update(row.rowId, { type: e.target.value as MetaFieldType })}
                className={fieldClass}
              >
                {META_FIELD_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
              <label className="flex items-center gap-1 text-xs text-slate-600">
                <input
                  type="checkbox"
                  checked={row.required}
                  onChange={(e) => update(row.rowId, { required: e.target.checked })}
                />
                required
              </label>
              <button
                type="button"
                onClick={() => setRows((current) => (current ?? []).filter((r) => r.rowId !== row.rowId))}
                className="rounded-md p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
                aria-label={`Remove field ${index + 1}`}
              >
                <XIcon />
              </button>
            </div>
            <div className="mt-2 flex flex-wrap gap-2">
              <input
                aria-label={`Field ${index + 1} label in documents`}
                placeholder="label in documents, e.g. Total"
                value={row.label}
                onChange={(e) => update(row.rowId, { label: e.target.value })}
                className={`min-w-0 flex-1 ${fieldClass}`}
              />
              {row.type === 'enum' ? (
                <input
                  aria-label={`Field ${index + 1} values`}
                  placeholder="values, comma-separated"
                  value={row.values}
                  onChange={(e) => update(row.rowId, { values: e.target.value })}
                  className={`min-w-0 flex-1 ${fieldClass}`}
                />
              ) : null}
              {row.type === 'string' ? (
                <input
                  aria-label={`Field ${index + 1} pattern`}
                  placeholder="pattern (regex), e.g. INV-\d+"
                  value={row.pattern}
                  onChange={(e) => update(row.rowId, { pattern: e.target.value })}
                  className={`min-w-0 flex-1 font-mono ${fieldClass}`}
                />
              ) : null}
            </div>
          </fieldset>
        ))}
        {rows !== null ? (
          <Button size="sm" variant="secondary" onClick={() => setRows([...(rows ?? []), newRow()])}>
            <PlusIcon className="h-3.5 w-3.5" />
            Add field
          </Button>
        ) : null}
        {error ? (
          <p role="alert" className="text-xs text-red-700">
            {error}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}
