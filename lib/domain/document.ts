import { z } from 'zod';

/**
 * A document's metadata: what the user edits (title, date, tags, free fields), stored as JSON on the document and
 * used by search filters, the agent's metadata tool and the documents page. One type for every layer.
 */
export const documentMetadataSchema = z.object({
  title: z.string().trim().max(300).nullable().default(null),
  documentDate: z.iso.date().nullable().default(null),
  tags: z.array(z.string().trim().min(1).max(60)).max(50).default([]),
  fields: z.record(z.string().trim().min(1).max(60), z.string().max(500)).default({}),
});
export type DocumentMetadata = z.infer<typeof documentMetadataSchema>;

/** Parses stored metadata JSON; anything malformed reads as empty metadata rather than failing the page. */
export function readMetadata(value: unknown): DocumentMetadata {
  const parsed = documentMetadataSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : documentMetadataSchema.parse({});
}
