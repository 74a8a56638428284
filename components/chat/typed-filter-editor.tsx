'use client';

import { useState } from 'react';
import type { MetaField, MetaFilterInput, MetaOperator } from '@/lib/domain/typed-meta';

const ORDERED_OPS: MetaOperator[] = ['=', '!=', '>', '>=', '<', '<=', 'between'];
const EQUALITY_OPS: MetaOperator[] = ['=', '!=', 'in'];

function opsFor(field: MetaField): MetaOperator[] {
  return field.type === 'number' || field.type === 'date' ? ORDERED_OPS : EQUALITY_OPS;
}

/** The typed value(s) of the editor's inputs; `in` takes comma-separated values. Null while incomplete. */
function filterValue(
  field: MetaField,
  op: MetaOperator,
  first: string,
  second: string,
): MetaFilterInput['value'] | null {
  const one = (raw: string) => {
    const v = raw.trim();
    if (v === '') return null;
    if (field.type === 'number') return Number.isFinite(Number(v)) ? Number(v) : null;
    if (field.type === 'boolean') return v === 'true';
    return v;
  };
  if (op === 'between') {
    const a = one(first);
    const b = one(second);
    return a === null || b === null ? null : [a, b];
  }
  if (op === 'in') {
    const list = first.split(',').map(one);
    return list.length > 0 && list.every((v) => v !== null) ? (list as (string | number | boolean)[]) : null;
  }
  return one(first);
}

const control = 'rounded-md border border-slate-300 px-1.5 py-1 text-sm';

/**
 * Builds typed filters (field, operator, value) on the typed fields of the buckets in scope; the server checks them
 * against the schemas again. Active filters are listed with a remove button.
 */
export function TypedFilterEditor({
  fields,
  value,
  onChange,
}: {
  fields: MetaField[];
  value: MetaFilterInput[];
  onChange: (next: MetaFilterInput[]) => void;
}) {
  const [name, setName] = useState(fields[0]?.name ?? '');
  const field = fields.find((f) => f.name === name) ?? fields[0];
  const [op, setOp] = useState<MetaOperator>('=');
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  if (!field) return null;
  const ops = opsFor(field);
  const currentOp = ops.includes(op) ? op : '=';
  const inputType = field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text';
  const built = filterValue(field, currentOp, first, second);

  return (
    <fieldset className="mb-3" data-testid="typed-filters">
      <legend className="mb-1 text-[0.7rem] font-semibold uppercase tracking-wide text-slate-400">Typed fields</legend>
      {value.length > 0 ? (
        <ul className="mb-1.5 flex flex-wrap gap-1">
          {value.map((f, i) => (
            <li
              key={`${f.field}-${f.op}-${String(f.value)}`}
              className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2 font-mono text-xs text-brand-800 ring-1 ring-brand-200"
            >
              {f.field} {f.op}{' '}
              {Array.isArray(f.value) ? f.value.join(f.op === 'between' ? '–' : ', ') : String(f.value)}
              <button
                type="button"
                className="rounded-full px-1 hover:bg-brand-100"
                aria-label={`Remove typed filter on ${f.field}`}
                onClick={() => onChange(value.filter((_, j) => j !== i))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap items-center gap-1">
        <select
          aria-label="Typed field"
          value={field.name}
          onChange={(e) => setName(e.target.value)}
          className={control}
        >
          {fields.map((f) => (
            <option key={f.name} value={f.name}>
              {f.name}
            </option>
          ))}
        </select>
        <select
          aria-label="Operator"
          value={currentOp}
          onChange={(e) => setOp(e.target.value as MetaOperator)}
          className={control}
        >
          {ops.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
        {field.type === 'enum' && currentOp !== 'in' ? (
          <select aria-label="Value" value={first} onChange={(e) => setFirst(e.target.value)} className={control}>
            <option value="">—</option>
            {(field.values ?? []).map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        ) : field.type === 'boolean' ? (
          <select aria-label="Value" value={first} onChange={(e) => setFirst(e.target.value)} className={control}>
            <option value="">—</option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        ) : (
          <input
            aria-label={currentOp === 'between' ? 'From' : 'Value'}
            type={currentOp === 'in' ? 'text' : inputType}
            value={first}
            onChange={(e) => setFirst(e.target.value)}
            className={`w-24 ${control}`}
          />
        )}
        {currentOp === 'between' ? (
          <input
            aria-label="To"
            type={inputType}
            value={second}
            onChange={(e) => setSecond(e.target.value)}
            className={`w-24 ${control}`}
          />
        ) : null}
        <button
          type="button"
          disabled={built === null}
          onClick={() => {
            if (built === null) return;
            onChange([...value, { field: field.name, op: currentOp, value: built }]);
            setFirst('');
            setSecond('');
          }}
          className="rounded-md px-2 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50 disabled:text-slate-400"
        >
          Add
        </button>
      </div>
    </fieldset>
  );
}
