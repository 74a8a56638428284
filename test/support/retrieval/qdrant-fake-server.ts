import { createServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * TEST-ONLY in-memory stand-in for the subset of Qdrant's REST API the chunk index uses (collections, payload
 * indexes, upsert/retrieve/delete/set-payload/update-vectors/count/query with prefetch + RRF), written from
 * Qdrant's documented semantics: strict mode refuses filters on unindexed keys, sparse scores are
 * Σ query·doc·idf with idf = ln(1 + (N - n + 0.5) / (n + 0.5)), dense scores are cosine, RRF is Σ 1/(k + rank)
 * with k = 2. It lets the adapter's code paths run without a server; it is not a substitute for the
 * contract suite against a real Qdrant (QDRANT_URL).
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type PointId = string | number;
interface SparseVector {
  indices: number[];
  values: number[];
}
interface StoredPoint {
  id: PointId;
  payload: JsonObject;
  dense: Map<string, number[]>;
  sparse: Map<string, SparseVector>;
}
interface Collection {
  config: JsonObject;
  denseSizes: Map<string, number>;
  sparseNames: Set<string>;
  indexes: Map<string, string>;
  strict: boolean;
  points: Map<string, StoredPoint>;
}

export interface FakeQdrantRequest {
  method: string;
  path: string;
  body: Json;
}

export interface FakeQdrant {
  url: string;
  requests: FakeQdrantRequest[];
  /**
   * Makes the next request whose method and path match fail with this status and a Qdrant-style error.
   * With `afterApplying`, the request takes effect first (e.g. another client won a creation race).
   */
  failNext(match: { method?: string; path: string }, status: number, error: string, afterApplying?: boolean): void;
  /**
   * Holds the next request whose method and path match until the returned function is called (then it is
   * handled as usual): a slow Qdrant, for tests of work running in the background.
   */
  holdNext(match: { method?: string; path: string }): () => void;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function asArray(value: Json | undefined): Json[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}
function asNumbers(value: Json | undefined): number[] | null {
  if (!Array.isArray(value)) return null;
  const numbers: number[] = [];
  for (const v of value) {
    if (typeof v !== 'number') return null;
    numbers.push(v);
  }
  return numbers;
}
function asSparse(value: Json | undefined): SparseVector | null {
  if (!isObject(value)) return null;
  const indices = asNumbers(value.indices);
  const values = asNumbers(value.values);
  return indices && values ? { indices, values } : null;
}
function idKey(id: Json | undefined): string {
  if (typeof id === 'string') return id.toLowerCase();
  if (typeof id === 'number') return String(id);
  throw new HttpError(400, 'Bad request: invalid point id');
}

function fieldValues(payload: JsonObject, key: string): Json[] {
  let current: Json[] = [payload];
  for (const part of key.split('.')) {
    current = current.flatMap((value) => (isObject(value) ? asArray(value[part]) : []));
  }
  return current.flatMap((value) => asArray(value));
}

function conditionKeys(filter: Json | undefined, out: string[] = []): string[] {
  if (!isObject(filter)) return out;
  for (const clause of ['must', 'should', 'must_not'] as const) {
    for (const condition of asArray(filter[clause])) {
      if (!isObject(condition)) continue;
      if (typeof condition.key === 'string') out.push(condition.key);
      else if (isObject(condition.is_empty) && typeof condition.is_empty.key === 'string')
        out.push(condition.is_empty.key);
      else conditionKeys(condition, out);
    }
  }
  return out;
}

/**
 * Qdrant's filter semantics over one point: must (all), must_not (none), should (at least one, when given), nested
 * filters; a field condition on a key the point lacks is false; `is_empty` is true for a missing key, null or [];
 * `range` on a `float`/`integer` index compares numbers only, on a `datetime` index RFC 3339 instants only (a value
 * of another type under the key never matches), on an unindexed key either.
 */
export function qdrantFilterMatches(
  payload: object,
  filter: object,
  indexes: ReadonlyMap<string, string> = new Map(),
): boolean {
  // As the server would see them: JSON on the wire.
  const wire = (value: object): Json => JSON.parse(JSON.stringify(value)) as Json;
  const body = wire(payload);
  if (!isObject(body)) throw new Error('a payload is a JSON object');
  return matches({ id: 0, payload: body, dense: new Map(), sparse: new Map() }, wire(filter), indexes);
}

function matches(point: StoredPoint, filter: Json | undefined, indexes: ReadonlyMap<string, string>): boolean {
  if (!isObject(filter)) return true;
  const test = (condition: Json): boolean => {
    if (!isObject(condition)) return false;
    if (Array.isArray(condition.has_id)) return condition.has_id.some((id) => idKey(id) === idKey(point.id));
    if (isObject(condition.is_empty) && typeof condition.is_empty.key === 'string')
      return fieldValues(point.payload, condition.is_empty.key).length === 0;
    if (typeof condition.key !== 'string') return matches(point, condition, indexes);
    const values = fieldValues(point.payload, condition.key);
    const indexType = indexes.get(condition.key);
    if (isObject(condition.match)) {
      const { value, any, except } = condition.match;
      if (value !== undefined) return values.some((v) => v === value);
      if (Array.isArray(any)) return values.some((v) => any.includes(v));
      if (Array.isArray(except)) return values.every((v) => !except.includes(v));
      return false;
    }
    if (isObject(condition.range)) {
      const range = condition.range;
      const toNumber = (v: Json | undefined) =>
        typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : Number.NaN;
      const numeric = indexType === 'float' || indexType === 'integer';
      return values.some((raw) => {
        if (numeric && typeof raw !== 'number') return false;
        if (indexType === 'datetime' && typeof raw !== 'string') return false;
        const v = toNumber(raw);
        if (Number.isNaN(v)) return false;
        if (range.gte !== undefined && range.gte !== null && !(v >= toNumber(range.gte))) return false;
        if (range.gt !== undefined && range.gt !== null && !(v > toNumber(range.gt))) return false;
        if (range.lte !== undefined && range.lte !== null && !(v <= toNumber(range.lte))) return false;
        if (range.lt !== undefined && range.lt !== null && !(v < toNumber(range.lt))) return false;
        return true;
      });
    }
    throw new HttpError(400, `Bad request: unsupported condition ${JSON.stringify(condition)}`);
  };
  const must = asArray(filter.must);
  const mustNot = asArray(filter.must_not);
  const should = asArray(filter.should);
  return must.every(test) && !mustNot.some(test) && (should.length === 0 || should.some(test));
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

function payloadSelection(payload: JsonObject, withPayload: Json | undefined): JsonObject | null {
  if (withPayload === true) return payload;
  if (Array.isArray(withPayload)) {
    const out: JsonObject = {};
    for (const key of withPayload) if (typeof key === 'string' && key in payload) out[key] = payload[key] ?? null;
    return out;
  }
  return null;
}

function vectorSelection(point: StoredPoint, withVector: Json | undefined): JsonObject | null {
  if (withVector === undefined || withVector === false || withVector === null) return null;
  const names = withVector === true ? null : new Set(asArray(withVector).filter((n) => typeof n === 'string'));
  const out: JsonObject = {};
  for (const [name, vector] of point.dense) if (!names || names.has(name)) out[name] = vector;
  for (const [name, vector] of point.sparse) if (!names || names.has(name)) out[name] = { ...vector };
  return out;
}

/** Starts the fake on 127.0.0.1 with a free port. */
export async function startFakeQdrant(): Promise<FakeQdrant> {
  const collections = new Map<string, Collection>();
  const requests: FakeQdrantRequest[] = [];
  const failures: { method?: string; path: string; status: number; error: string; afterApplying: boolean }[] = [];
  const holds: { method?: string; path: string; released: Promise<void> }[] = [];

  function collection(name: string): Collection {
    const found = collections.get(name);
    if (!found) throw new HttpError(404, `Not found: Collection \`${name}\` doesn't exist!`);
    return found;
  }

  function checkFilter(c: Collection, filter: Json | undefined): void {
    if (!c.strict) return;
    for (const key of conditionKeys(filter)) {
      if (!c.indexes.has(key)) throw new HttpError(400, `Bad request: Index required but not found for "${key}"`);
    }
  }

  function parseVectors(c: Collection, vector: Json | undefined, point: StoredPoint): void {
    if (!isObject(vector)) throw new HttpError(400, 'Bad request: named vectors expected');
    for (const [name, value] of Object.entries(vector)) {
      const size = c.denseSizes.get(name);
      if (size !== undefined) {
        const dense = asNumbers(value);
        if (!dense || dense.length !== size) {
          throw new HttpError(400, `Wrong input: Vector dimension error: expected dim: ${size}, got ${dense?.length}`);
        }
        point.dense.set(name, dense);
      } else if (c.sparseNames.has(name)) {
        const sparse = asSparse(value);
        if (!sparse || sparse.indices.length !== sparse.values.length) {
          throw new HttpError(400, 'Wrong input: sparse vector indices and values differ in length');
        }
        if (new Set(sparse.indices).size !== sparse.indices.length) {
          throw new HttpError(400, 'Wrong input: sparse vector indices must be unique');
        }
        point.sparse.set(name, sparse);
      } else {
        throw new HttpError(400, `Wrong input: Not existing vector name error: ${name}`);
      }
    }
  }

  function selectPoints(c: Collection, body: JsonObject): StoredPoint[] {
    if (Array.isArray(body.points)) {
      return body.points.map((id) => c.points.get(idKey(id))).filter((p): p is StoredPoint => p !== undefined);
    }
    checkFilter(c, body.filter);
    return [...c.points.values()].filter((p) => matches(p, body.filter, c.indexes));
  }

  function search(c: Collection, request: JsonObject): { point: StoredPoint; score: number }[] {
    const limit = typeof request.limit === 'number' ? request.limit : 10;
    checkFilter(c, request.filter);
    const candidates = [...c.points.values()].filter((p) => matches(p, request.filter, c.indexes));
    const prefetches = asArray(request.prefetch).filter(isObject);
    if (prefetches.length > 0) {
      const query = request.query;
      if (!isObject(query) || query.fusion !== 'rrf') throw new HttpError(400, 'Bad request: only rrf fusion');
      const allowed = new Set(candidates.map((p) => idKey(p.id)));
      const fused = new Map<string, { point: StoredPoint; score: number }>();
      for (const prefetch of prefetches) {
        search(c, prefetch).forEach(({ point }, rank) => {
          if (!allowed.has(idKey(point.id))) return;
          const entry = fused.get(idKey(point.id)) ?? { point, score: 0 };
          entry.score += 1 / (2 + rank + 1);
          fused.set(idKey(point.id), entry);
        });
      }
      return [...fused.values()].sort((a, b) => b.score - a.score).slice(0, limit);
    }
    const using = typeof request.using === 'string' ? request.using : '';
    const dense = asNumbers(request.query);
    const sparse = asSparse(request.query);
    let scored: { point: StoredPoint; score: number }[];
    if (c.denseSizes.has(using) && dense) {
      if (dense.length !== c.denseSizes.get(using)) throw new HttpError(400, 'Wrong input: Vector dimension error');
      scored = candidates.flatMap((point) => {
        const vector = point.dense.get(using);
        return vector ? [{ point, score: cosine(dense, vector) }] : [];
      });
    } else if (c.sparseNames.has(using) && sparse) {
      const params = isObject(request.params) ? request.params : {};
      const idf = isObject(params.idf) ? params.idf : null;
      if (idf) checkFilter(c, idf.corpus);
      const corpus = [...c.points.values()].filter(
        (p) => p.sparse.has(using) && (!idf || matches(p, idf.corpus, c.indexes)),
      );
      const docFreq = (index: number) => corpus.filter((p) => p.sparse.get(using)?.indices.includes(index)).length;
      const weights = new Map<number, number>();
      sparse.indices.forEach((index, i) => {
        const n = docFreq(index);
        weights.set(index, (sparse.values[i] ?? 0) * Math.log(1 + (corpus.length - n + 0.5) / (n + 0.5)));
      });
      scored = candidates.flatMap((point) => {
        const vector = point.sparse.get(using);
        if (!vector) return [];
        let score = 0;
        let overlap = false;
        vector.indices.forEach((index, i) => {
          const weight = weights.get(index);
          if (weight !== undefined) {
            overlap = true;
            score += weight * (vector.values[i] ?? 0);
          }
        });
        return overlap ? [{ point, score }] : [];
      });
    } else {
      throw new HttpError(400, `Wrong input: query does not fit vector "${using}"`);
    }
    return scored
      .sort((a, b) => b.score - a.score || idKey(a.point.id).localeCompare(idKey(b.point.id)))
      .slice(0, limit);
  }

  function query(c: Collection, b: JsonObject): Json {
    const limit = typeof b.limit === 'number' ? b.limit : 10;
    const maxLimit = isObject(c.config.strict_mode_config) ? c.config.strict_mode_config.max_query_limit : null;
    if (c.strict && typeof maxLimit === 'number' && limit > maxLimit) {
      throw new HttpError(400, `Bad request: Limit exceeded ${limit} > ${maxLimit}`);
    }
    const points = search(c, b).map(({ point, score }) => {
      const out: JsonObject = { id: point.id, version: 0, score };
      const payload = payloadSelection(point.payload, b.with_payload);
      if (payload) out.payload = payload;
      return out;
    });
    return { points };
  }

  function handle(method: string, path: string, body: Json): Json {
    const url = new URL(path, 'http://fake');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (method === 'GET' && parts.length === 0)
      return { title: 'qdrant - vector search engine', version: '1.19.0-fake' };
    if (parts[0] !== 'collections' || parts[1] === undefined) throw new HttpError(404, 'Not found');
    const name = parts[1];
    const rest = parts.slice(2).join('/');
    const b: JsonObject = isObject(body) ? body : {};
    const ok = { operation_id: 0, status: 'completed' };
    if (method === 'GET' && rest === 'exists') return { exists: collections.has(name) };
    if (method === 'PUT' && rest === '') {
      if (collections.has(name)) throw new HttpError(409, `Wrong input: Collection \`${name}\` already exists!`);
      const denseSizes = new Map<string, number>();
      if (isObject(b.vectors)) {
        for (const [vectorName, params] of Object.entries(b.vectors)) {
          if (isObject(params) && typeof params.size === 'number') denseSizes.set(vectorName, params.size);
        }
      }
      const sparseNames = new Set(isObject(b.sparse_vectors) ? Object.keys(b.sparse_vectors) : []);
      const strict = isObject(b.strict_mode_config) && b.strict_mode_config.enabled === true;
      collections.set(name, { config: b, denseSizes, sparseNames, indexes: new Map(), strict, points: new Map() });
      return true;
    }
    if (method === 'DELETE' && rest === '') return collections.delete(name);
    const c = collection(name);
    if (method === 'GET' && rest === '') {
      const payloadSchema: JsonObject = {};
      for (const [field, type] of c.indexes) payloadSchema[field] = { data_type: type, points: 0 };
      return {
        status: 'green',
        points_count: c.points.size,
        config: {
          params: {
            vectors: isObject(c.config.vectors) ? c.config.vectors : {},
            sparse_vectors: isObject(c.config.sparse_vectors) ? c.config.sparse_vectors : {},
          },
        },
        payload_schema: payloadSchema,
      };
    }
    if (method === 'PUT' && rest === 'index') {
      if (typeof b.field_name !== 'string') throw new HttpError(400, 'Bad request: field_name');
      const schema = b.field_schema;
      const type =
        typeof schema === 'string' ? schema : isObject(schema) && typeof schema.type === 'string' ? schema.type : '';
      c.indexes.set(b.field_name, type);
      return ok;
    }
    if (method === 'PUT' && rest === 'points') {
      for (const raw of asArray(b.points)) {
        if (!isObject(raw)) throw new HttpError(400, 'Bad request: point');
        const point: StoredPoint = {
          id: typeof raw.id === 'number' ? raw.id : String(raw.id),
          payload: isObject(raw.payload) ? raw.payload : {},
          dense: new Map(),
          sparse: new Map(),
        };
        parseVectors(c, raw.vector, point);
        c.points.set(idKey(raw.id), point);
      }
      return ok;
    }
    if (method === 'POST' && rest === 'points') {
      return asArray(b.ids).flatMap((id) => {
        const point = c.points.get(idKey(id));
        if (!point) return [];
        const out: JsonObject = { id: point.id };
        const payload = payloadSelection(point.payload, b.with_payload ?? true);
        if (payload) out.payload = payload;
        const vector = vectorSelection(point, b.with_vector);
        if (vector) out.vector = vector;
        return [out];
      });
    }
    if (method === 'POST' && rest === 'points/delete') {
      for (const point of selectPoints(c, b)) c.points.delete(idKey(point.id));
      return ok;
    }
    if (method === 'POST' && rest === 'points/payload') {
      if (!isObject(b.payload)) throw new HttpError(400, 'Bad request: payload');
      const payload = b.payload;
      for (const point of selectPoints(c, b)) Object.assign(point.payload, payload);
      return ok;
    }
    if (method === 'PUT' && rest === 'points/vectors') {
      for (const raw of asArray(b.points)) {
        if (!isObject(raw)) throw new HttpError(400, 'Bad request: point');
        const point = c.points.get(idKey(raw.id));
        if (!point) throw new HttpError(404, `Not found: No point with id ${String(raw.id)} found`);
        parseVectors(c, raw.vector, point);
      }
      return ok;
    }
    if (method === 'POST' && rest === 'points/scroll') {
      checkFilter(c, b.filter);
      const limit = typeof b.limit === 'number' ? b.limit : 10;
      const sorted = [...c.points.values()]
        .filter((p) => matches(p, b.filter, c.indexes))
        .sort((x, y) => idKey(x.id).localeCompare(idKey(y.id)));
      const from =
        b.offset === undefined || b.offset === null ? 0 : sorted.findIndex((p) => idKey(p.id) === idKey(b.offset));
      const page = sorted.slice(Math.max(0, from), Math.max(0, from) + limit);
      const next = sorted[Math.max(0, from) + limit];
      return {
        points: page.map((point) => {
          const out: JsonObject = { id: point.id };
          const payload = payloadSelection(point.payload, b.with_payload ?? true);
          if (payload) out.payload = payload;
          return out;
        }),
        next_page_offset: next ? next.id : null,
      };
    }
    if (method === 'POST' && rest === 'points/count') {
      checkFilter(c, b.filter);
      return { count: [...c.points.values()].filter((p) => matches(p, b.filter, c.indexes)).length };
    }
    if (method === 'POST' && rest === 'points/query') return query(c, b);
    if (method === 'POST' && rest === 'points/query/batch') {
      return asArray(b.searches).map((search) => query(c, isObject(search) ? search : {}));
    }
    throw new HttpError(404, `Not found: ${method} ${url.pathname}`);
  }

  const sockets = new Set<Socket>();
  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const held = holds.findIndex(
        (h) => new URL(path, 'http://fake').pathname === h.path && (h.method ?? method) === method,
      );
      if (held !== -1) await holds.splice(held, 1)[0]?.released;
      const send = (status: number, payload: Json) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      try {
        const body: Json = text ? JSON.parse(text) : null;
        requests.push({ method, path, body });
        const pathname = new URL(path, 'http://fake').pathname;
        const index = failures.findIndex((f) => pathname === f.path && (f.method ?? method) === method);
        const [failure] = index === -1 ? [] : failures.splice(index, 1);
        if (failure && !failure.afterApplying) throw new HttpError(failure.status, failure.error);
        const result = handle(method, path, body);
        if (failure) throw new HttpError(failure.status, failure.error);
        if (method === 'GET' && new URL(path, 'http://fake').pathname === '/') send(200, result);
        else send(200, { result, status: 'ok', time: 0.0001 });
      } catch (error) {
        const status = error instanceof HttpError ? error.status : 500;
        send(status, { status: { error: error instanceof Error ? error.message : String(error) }, time: 0 });
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake Qdrant has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    failNext(match, status, error, afterApplying = false) {
      failures.push({ ...match, status, error, afterApplying });
    },
    holdNext(match) {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.push({ ...match, released });
      return release;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
