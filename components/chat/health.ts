import { z } from 'zod';

const healthSchema = z.object({
  llm: z.object({
    status: z.string(),
    detail: z.string().optional(),
    provider: z.string().optional(),
    decisionModel: z.string().optional(),
    synthesisModel: z.string().optional(),
  }),
  embedder: z.object({ status: z.string(), model: z.string().optional() }),
  mode: z.object({ answers: z.enum(['llm', 'extractive']), semanticSearch: z.boolean() }),
});
export type HealthSummary = z.infer<typeof healthSchema>;

/** GET /api/health, read leniently (the route answers 503 with the same body when the database is down). */
export async function loadHealth(signal?: AbortSignal): Promise<HealthSummary | null> {
  try {
    const response = await fetch('/api/health', {
      headers: { accept: 'application/json' },
      ...(signal ? { signal } : {}),
    });
    const parsed = healthSchema.safeParse(await response.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The pull commands for the configured models (decision, synthesis if different, embedding). */
export function pullCommands(h: HealthSummary): string[] {
  const models = [h.llm.decisionModel, h.llm.synthesisModel, h.embedder.model].filter((m): m is string => Boolean(m));
  return [...new Set(models)].map((m) => `ollama pull ${m}`);
}
