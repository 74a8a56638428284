import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect } from '@lancedb/lancedb';
import { Schema } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_SCHEMA, chunkToRow, LANGUAGE_COLUMN } from '@/lib/retrieval/embedded/lance-rows';
import { createEmbeddedChunkIndex, ownerTableName } from '@/lib/retrieval/embedded-chunk-index';
import { detectLanguage } from '@/lib/retrieval/language';
import type { IndexedChunk } from '@/lib/retrieval/types';
import { makeContractChunk } from '@/test/support/retrieval/contract';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-languages-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// Real sentences: GeoTopo (German lecture notes), the OLAP paper and a municipal record (French), SciFact.
const TEXTS = {
  de: 'Ein topologischer Raum X heißt hausdorffsch, wenn es für je zwei Punkte x und y in X disjunkte Umgebungen gibt. Jeder metrische Raum ist ein Hausdorffraum.',
  fr: 'Le projet de construction proposé prévoit un agrandissement de l’arrière du bâtiment préservé, permettant l’ajout de 43 logements.',
  en: 'Hausdorff spaces are topological spaces in which any two distinct points have disjoint neighbourhoods; every metric space is Hausdorff.',
};

describe('keyword search in a library of several languages', () => {
  it('finds German and French text from inflected questions, and English text from English ones', async () => {
    const index = await createEmbeddedChunkIndex({ dir });
    const owner = 'owner-languages';
    await index.upsert(
      (['de', 'fr', 'en'] as const).map((language) =>
        makeContractChunk({
          ownerId: owner,
          documentId: `doc-${language}`,
          chunkId: `chunk-${language}`,
          text: TEXTS[language],
          language: detectLanguage(TEXTS[language]),
        }),
      ),
    );
    const top = async (query: string) =>
      (await index.search({ ownerId: owner, query, mode: 'keyword', topK: 3 })).map((hit) => hit.chunkId);

    // "Hausdorffräume" / "Umgebung": German stems meet "Hausdorffraum" / "Umgebungen".
    expect((await top('Welche Umgebung haben Punkte in Hausdorffräumen?'))[0]).toBe('chunk-de');
    // "logement", "agrandissements": French stems meet "logements", "agrandissement".
    expect(await top('Combien de logement les agrandissements ajoutent-ils ?')).toEqual(['chunk-fr']);
    // An English question still finds the English chunk first.
    expect((await top('Which spaces have disjoint neighbourhoods?'))[0]).toBe('chunk-en');
    await index.close();
  });

  it('detects the language of a chunk indexed without one, the same as at ingest', async () => {
    const index = await createEmbeddedChunkIndex({ dir });
    const owner = 'owner-languages-undeclared';
    await index.upsert([
      makeContractChunk({ ownerId: owner, documentId: 'doc-fr', chunkId: 'fr', text: TEXTS.fr }),
      makeContractChunk({ ownerId: owner, documentId: 'doc-en', chunkId: 'en', text: TEXTS.en }),
    ]);
    const hits = await index.search({ ownerId: owner, query: 'agrandissements', mode: 'keyword', topK: 3 });
    expect(hits.map((hit) => hit.chunkId)).toEqual(['fr']);
    await index.close();

    // A reopened index (segments read from disk) knows the languages of the owner's chunks.
    const reopened = await createEmbeddedChunkIndex({ dir });
    const again = await reopened.search({ ownerId: owner, query: 'logement', mode: 'keyword', topK: 3 });
    expect(again.map((hit) => hit.chunkId)).toEqual(['fr']);
    await reopened.close();
  });
});

describe('tables written before languages were detected', () => {
  it('gain the language column on open; old rows are analysed in their detected language', async () => {
    const oldDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-languages-old-'));
    try {
      const owner = 'owner-old-table';
      const old = makeContractChunk({ ownerId: owner, documentId: 'doc-fr', chunkId: 'fr-old', text: TEXTS.fr });
      // The table as the previous version wrote it: every column but `language`.
      const db = await connect(oldDir);
      const oldSchema = new Schema(CHUNK_SCHEMA.fields.filter((field) => field.name !== LANGUAGE_COLUMN));
      const table = await db.createEmptyTable(ownerTableName(owner), oldSchema);
      const { language: _dropped, ...row } = chunkToRow(toStoredChunk(old), null, false);
      await table.add([row]);
      table.close();

      const index = await createEmbeddedChunkIndex({ dir: oldDir });
      const hits = await index.search({ ownerId: owner, query: 'agrandissements', mode: 'keyword', topK: 3 });
      expect(hits.map((hit) => hit.chunkId)).toEqual(['fr-old']);
      await index.upsert([
        makeContractChunk({ ownerId: owner, documentId: 'doc-en', chunkId: 'en-new', text: TEXTS.en, language: 'en' }),
      ]);
      expect((await index.get(owner, ['en-new']))[0]?.language).toBe('en');
      await index.close();
      const reopened = await db.openTable(ownerTableName(owner));
      expect((await reopened.schema()).fields.map((field) => field.name)).toContain(LANGUAGE_COLUMN);
      reopened.close();
    } finally {
      fs.rmSync(oldDir, { recursive: true, force: true });
    }
  });
});

function toStoredChunk(chunk: IndexedChunk): Omit<IndexedChunk, 'vector'> {
  const { vector: _vector, ...rest } = chunk;
  return rest;
}
