import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getDbHandle } from '@/lib/db/client';
import { ensureDbReady } from '@/lib/db/lifecycle';

/**
 * The migrations, applied in order to an empty database, give every table and column the data model declares.
 * Migrations written on parallel branches can undo each other (a SQLite table rebuild generated without a column
 * another migration added drops it), which no query-level test notices until that column is used.
 */

const SCALARS = new Set(['String', 'Int', 'Float', 'Boolean', 'DateTime', 'Json', 'Bytes', 'BigInt', 'Decimal']);

interface ModelColumns {
  table: string;
  columns: string[];
}

function declaredTables(): ModelColumns[] {
  const source = fs.readFileSync(path.resolve(import.meta.dirname, '../../prisma/schema.base.prisma'), 'utf8');
  const models: ModelColumns[] = [];
  for (const match of source.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const [, name, body] = match as unknown as [string, string, string];
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? name;
    const columns: string[] = [];
    for (const line of body.split('\n')) {
      const field = /^\s*(\w+)\s+(\w+)(\?|\[\])?/.exec(line);
      if (!field || line.trim().startsWith('@@') || line.trim().startsWith('//')) continue;
      const [, fieldName, type, modifier] = field as unknown as [string, string, string, string | undefined];
      if (!SCALARS.has(type) || modifier === '[]') continue;
      columns.push(/@map\("([^"]+)"\)/.exec(line)?.[1] ?? fieldName);
    }
    models.push({ table, columns });
  }
  return models;
}

async function actualColumns(table: string): Promise<string[]> {
  const { db, provider } = getDbHandle();
  if (provider === 'sqlite') {
    const rows = await db.$queryRawUnsafe<{ name: string }[]>(`PRAGMA table_info("${table}")`);
    return rows.map((r) => r.name);
  }
  const rows = await db.$queryRawUnsafe<{ column_name: string }[]>(
    'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
    table,
  );
  return rows.map((r) => r.column_name);
}

describe('the migrations build the declared data model', () => {
  it('every model has its table and every scalar field its column', async () => {
    await ensureDbReady();
    const models = declaredTables();
    expect(models.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const { table, columns } of models) {
      const actual = new Set(await actualColumns(table));
      if (actual.size === 0) missing.push(`table ${table}`);
      for (const column of columns) if (!actual.has(column)) missing.push(`${table}.${column}`);
    }
    expect(missing).toEqual([]);
  });
});
