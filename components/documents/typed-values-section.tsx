'use client';

import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { fetchJson } from '@/lib/client/fetch-json';
import type { BucketMetaSchema, MetaField, MetaValue, TypedMeta } from '@/lib/domain/typed-meta';
import { AppError } from '@/lib/errors';

type Draft = Record<string, string>;

function toDraft(schema: BucketMetaSchema, meta: TypedMeta): Draft {
  return Object.fromEntries(
    schema.fields.map((f) => {
      const value = meta.values[f.name];
      return [f.name, value === undefined ? '' : String(value)];
    }),
  );
}

/** Draft strings as typed values: empty means unset; the server coerces and validates against the schema. */
function fromDraft(schema: BucketMetaSchema, draft: Draft): Record<string, MetaValue | null> {
  const out: Record<string, MetaValue | null> = {};
  for (const f of schema.fields) {
    const raw = (draft[f.name] ?? '').trim();
    if (raw === '') out[f.name] = null;
    else if (f.type === 'boolean') out[f.name] = raw === 'true';
    else if (f.type === 'number') out[f.name] = Number.isFinite(Number(raw)) ? Number(raw) : raw;
    else out[f.name] = raw;
  }
  return out;
}

const inputClass =
  'mt-1 w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none';

function FieldInput({ field, value, onChange }: { field: MetaField; value: string; onChange: (v: string) => void }) {
  const label = `${field.name}${field.required ? ' (required)' : ''}`;
  if (field.type === 'enum' || field.type === 'boolean') {
    const options = field.type === 'enum' ? (field.values ?? []) : ['true', 'false'];
    return (
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} className={inputClass}>
        <option value="">—</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  }
  return (
    <input
      aria-label={label}
      type={field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text'}
      step={field.type === 'number' ? 'any' : undefined}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className={inputClass}
    />
  );
}

/**
 * The document's typed values for its bucket's schema: one typed input per field, the evidence each extracted
 * value was read from, saved on its own (PUT /api/documents/:id/typed-metadata). Nothing shows when the bucket
 * declares no fields.
 */
export function TypedValuesSection({ documentId, bucketId }: { documentId: string; bucketId: string | null }) {
  const [state, setState] = useState<{ schema: BucketMetaSchema; meta: TypedMeta } | null>(null);
  const [draft, setDraft] = useState<Draft>({});
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    setState(null);
    if (!bucketId) return;
    fetchJson<{ schema: BucketMetaSchema; meta: TypedMeta }>(`/api/documents/${documentId}/typed-metadata`)
      .then((loaded) => {
        if (!live) return;
        setState(loaded);
        setDraft(toDraft(loaded.schema, loaded.meta));
      })
      .catch(() => live && setMessage({ error: true, text: 'Could not load the typed fields.' }));
    return () => {
      live = false;
    };
  }, [documentId, bucketId]);

  if (!state || state.schema.fields.length === 0) return null;
  const { schema, meta } = state;

  async function save() {
    setSaving(true);
    setMessage(null);
    try {
      const { meta: saved } = await fetchJson<{ meta: TypedMeta }>(`/api/documents/${documentId}/typed-metadata`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ values: fromDraft(schema, draft) }),
      });
      setState({ schema, meta: saved });
      setMessage({ error: false, text: 'Typed fields saved.' });
    } catch (e) {
      setMessage({ error: true, text: e instanceof AppError || e instanceof Error ? e.message : 'Could not save.' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <fieldset data-testid="typed-values">
      <legend className="text-sm font-medium text-slate-700">Typed fields of the bucket</legend>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        {schema.fields.map((field) => {
          const proof = meta.evidence[field.name];
          return (
            <div key={field.name}>
              <span className="font-mono text-xs text-slate-600">
                {field.name} <span className="text-slate-400">({field.type})</span>
                {field.required ? <span className="text-red-600"> *</span> : null}
              </span>
              <FieldInput
                field={field}
                value={draft[field.name] ?? ''}
                onChange={(v) => setDraft((d) => ({ ...d, [field.name]: v }))}
              />
              {proof?.quote ? (
                <p className="mt-0.5 truncate text-xs text-slate-500" title={proof.quote}>
                  {proof.source === 'manual'
                    ? 'Set by hand'
                    : `Read from${proof.page ? ` p.${proof.page}` : ''}: “${proof.quote}”`}
                </p>
              ) : proof?.source === 'manual' ? (
                <p className="mt-0.5 text-xs text-slate-500">Set by hand</p>
              ) : null}
            </div>
          );
        })}
      </div>
      <div className="mt-2 flex items-center gap-3">
        <Button size="sm" variant="secondary" onClick={save} disabled={saving}>
          {saving ? 'Saving…' : 'Save typed fields'}
        </Button>
        {message ? (
          <p
            role={message.error ? 'alert' : 'status'}
            className={message.error ? 'text-xs text-red-700' : 'text-xs text-slate-600'}
          >
            {message.text}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}
