import { z } from 'zod';
import { clarificationSchema } from './events';
import { toolCallSchema } from './tools/types';

/**
 * The decision model's one action per step (seed 000's strict JSON action), as a zod schema that is also sent to
 * the model as a JSON schema. `coerceAction` accepts the seed's older shape ({"type":"tool_call","tool":...,"input":{...}}).
 */
export const decisionActionSchema = z.object({
  action: z.enum(['tool_call', 'final', 'clarify']).describe('What to do next'),
  calls: z.array(toolCallSchema).max(3).optional().describe('For tool_call: 1-3 independent tool calls'),
  irrelevant: z.array(z.string().max(20)).max(30).optional().describe('Handles of results that are not needed'),
  clarification: clarificationSchema.optional().describe('For clarify'),
  reason: z.string().max(400).optional(),
});
export type DecisionAction = z.infer<typeof decisionActionSchema>;

/** Maps near-miss shapes small models produce onto the action schema (before zod validation). */
export function coerceAction(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const o = { ...(raw as Record<string, unknown>) };
  if (o.action === undefined && typeof o.type === 'string') o.action = o.type.toLowerCase();
  if (o.action === undefined && typeof o.tool === 'string') o.action = 'tool_call';
  if (o.action === 'tool_call' && o.calls === undefined && typeof o.tool === 'string') {
    const input = o.input && typeof o.input === 'object' ? (o.input as Record<string, unknown>) : {};
    o.calls = [{ tool: o.tool, ...input }];
  }
  if (Array.isArray(o.calls)) {
    o.calls = o.calls.map((c) => {
      if (!c || typeof c !== 'object') return c;
      const call = { ...(c as Record<string, unknown>) };
      if (call.input && typeof call.input === 'object') Object.assign(call, call.input as Record<string, unknown>);
      delete call.input;
      return call;
    });
  }
  delete o.type;
  delete o.tool;
  delete o.input;
  return o;
}

/** Validates raw JSON as an action; the zod message is what the model is told on a retry. */
export function parseAction(raw: unknown): { ok: true; action: DecisionAction } | { ok: false; message: string } {
  const parsed = decisionActionSchema.safeParse(coerceAction(raw));
  if (parsed.success) {
    if (parsed.data.action === 'tool_call' && (parsed.data.calls?.length ?? 0) === 0) {
      return { ok: false, message: 'tool_call needs "calls" with at least one {tool, ...}' };
    }
    if (parsed.data.action === 'clarify' && !parsed.data.clarification)
      return { ok: false, message: 'clarify needs "clarification"' };
    return { ok: true, action: parsed.data };
  }
  return {
    ok: false,
    message: parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; '),
  };
}
