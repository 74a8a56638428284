import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ApiRoute, apiRoutes } from '@/lib/http/api-routes';

/**
 * Issue 14: every string and array a request may carry has a maximum (the byte cap bounds the body, these bound
 * what one field may hold once parsed), and so have the keys of every map. Walks each route's request body and
 * query schema as JSON Schema (the form the OpenAPI document shows).
 */

type Json = { [key: string]: unknown };

/** Formats whose values have a fixed maximum length. */
const BOUNDED_FORMATS = new Set(['uuid', 'date', 'date-time', 'time']);

/** An anchored pattern without unbounded repetition (`*`, `+`, `{n,}`) matches strings of bounded length. */
function boundedPattern(pattern: unknown): boolean {
  return (
    typeof pattern === 'string' &&
    pattern.startsWith('^') &&
    pattern.endsWith('$') &&
    !/(^|[^\\])[*+]|\{\d+,\}/.test(pattern)
  );
}

function boundedString(node: Json): boolean {
  return (
    typeof node.maxLength === 'number' ||
    'const' in node ||
    'enum' in node ||
    BOUNDED_FORMATS.has(String(node.format)) ||
    boundedPattern(node.pattern)
  );
}

/**
 * Paths of unbounded strings, arrays and map keys. A map of typed values (a record) must bound its keys (their
 * number is bounded by the schemas' refinements, which JSON Schema cannot show); extra keys of a loose object
 * (`additionalProperties: {}`) are not read by the routes and are bounded by the body's byte cap alone.
 */
function unbounded(schema: unknown, at: string, out: string[]): void {
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Json;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('string') && !boundedString(node)) out.push(`${at}: string without a maximum length`);
  if (types.includes('array') && typeof node.maxItems !== 'number') out.push(`${at}: array without maxItems`);
  const extra = node.additionalProperties;
  const typedMap = typeof extra === 'object' && extra !== null && Object.keys(extra).length > 0;
  if (types.includes('object') && typedMap) {
    const names = (node.propertyNames ?? { type: 'string' }) as Json;
    if (!boundedString(names)) out.push(`${at}: map keys without a maximum length`);
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object')
      for (const [name, child] of Object.entries(value)) unbounded(child, `${at}.${name}`, out);
    else if (Array.isArray(value))
      for (const [i, child] of value.entries()) unbounded(child, `${at}.${key}[${i}]`, out);
    else if (typeof value === 'object' && value !== null && key !== 'propertyNames')
      unbounded(value, `${at}.${key}`, out);
  }
}

describe('request schemas', () => {
  it('bound every string, array and map key of every request body and query', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const [key, route] of Object.entries(apiRoutes) as [string, ApiRoute][]) {
      for (const [part, schema] of [
        ['body', route.body],
        ['query', route.query],
      ] as const) {
        if (!schema) continue;
        checked++;
        unbounded(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), `${key} ${part}`, problems);
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  it('flags what it must (the check itself)', () => {
    const problems: string[] = [];
    const schema = z.object({
      text: z.string(),
      list: z.array(z.string().max(5)),
      map: z.record(z.string(), z.number()),
      word: z.string().regex(/^[a-z]+$/),
      ok: z.string().regex(/^[a-z]{1,8}$/),
    });
    unbounded(z.toJSONSchema(schema), 'x', problems);
    expect(problems).toEqual([
      'x.text: string without a maximum length',
      'x.list: array without maxItems',
      'x.map: map keys without a maximum length',
      'x.word: string without a maximum length',
    ]);
  });
});
