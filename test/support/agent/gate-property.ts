import fc from 'fast-check';
import { trustIssues } from '@/lib/agent/validate';
import { makeChunk, makeDocument } from './fixtures';
import { stateWith } from './state';

/**
 * Grounded answers and their perturbations, for the gate's property test and `npm run eval:gate`.
 * A world is two sources of facts (counts, percentages, versions, dates, quotable sentences) with distinct values;
 * its answer restates every fact in some written form ("1,500", "1.5k", "five hundred", "March 3, 2024"…) and
 * cites the source that states it (digits of another script, quotation marks of any style, a date with its day of
 * the week). A perturbation changes one digit of a number, one letter inside a quote, one date, the marker of one
 * sentence, the sign of a number, or the day of the week of a date; the ground truth is known from the generator,
 * not from the gate.
 */

const WORDS =
  'amber basin cedar delta ember fjord garnet harbor indigo juniper kelp lagoon meadow nectar orchid pebble quartz ' +
  'ripple saffron tundra umber violet willow yarrow zephyr anchor beacon canyon dune estuary falcon glacier heron ' +
  'island jasper kestrel lantern';
const VOCAB = WORDS.split(' ');
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const ONES =
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(
    ' ',
  );
const TENS = 'zero ten twenty thirty forty fifty sixty seventy eighty ninety'.split(' ');

/** English words for 0 <= n < 1,000,000. */
export function toWords(n: number): string {
  if (n < 20) return ONES[n] ?? '';
  if (n < 100) return `${TENS[Math.floor(n / 10)]}${n % 10 ? `-${ONES[n % 10]}` : ''}`;
  if (n < 1000) return `${ONES[Math.floor(n / 100)]} hundred${n % 100 ? ` ${toWords(n % 100)}` : ''}`;
  return `${toWords(Math.floor(n / 1000))} thousand${n % 1000 ? ` ${toWords(n % 1000)}` : ''}`;
}

type CountForm = 'plain' | 'comma' | 'k' | 'words' | 'script';
export type Fact =
  | { kind: 'count'; noun: string; value: number; form: CountForm; sign?: boolean }
  | { kind: 'percent'; noun: string; value: number; form: 'sign' | 'space' | 'word' | 'per cent' }
  | { kind: 'version'; noun: string; parts: [number, number, number] }
  | {
      kind: 'date';
      noun: string;
      y: number;
      m: number;
      d: number;
      form: 'iso' | 'mdy' | 'dmy' | 'weekday';
      shift?: number;
    }
  | { kind: 'quote'; words: string[]; marks: readonly [string, string] };

/** Quotation marks a reader takes for quotes, each pair as an answer may write it. */
const MARKS: readonly (readonly [string, string])[] = [
  ['"', '"'],
  ['\u201C', '\u201D'],
  ['\u201E', '\u201C'],
  ['\u00AB', '\u00BB'],
  ['\u300C', '\u300D'],
  ['\uFF02', '\uFF02'],
  ['\u2033', '\u2033'],
  ['<q>', '</q>'],
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const pad = (n: number) => String(n).padStart(2, '0');

function sourceSentence(f: Fact): string {
  switch (f.kind) {
    case 'count':
      return `The ${f.noun} limit is ${f.value.toLocaleString('en-US')} units.`;
    case 'percent':
      return `About ${f.value}% of ${f.noun} records are archived.`;
    case 'version':
      return `The ${f.noun} component ships as version ${f.parts.join('.')}.`;
    case 'date':
      return `The ${f.noun} review took place on ${f.y}-${pad(f.m)}-${pad(f.d)}.`;
    case 'quote':
      return `${capital(f.words.join(' '))}.`;
  }
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function renderCount(value: number, form: CountForm): string {
  if (form === 'comma') return value.toLocaleString('en-US');
  // Arabic-Indic digits (U+0660 to U+0669).
  if (form === 'script') return String(value).replace(/\d/g, (d) => String.fromCharCode(0x660 + Number(d)));
  if (form === 'k' && value >= 1000 && value % 100 === 0) return `${value / 1000}k`;
  if (form === 'words' && value < 1_000_000) return toWords(value);
  return String(value);
}

function answerSentence(f: Fact, n: number): string {
  switch (f.kind) {
    case 'count':
      return `The ${f.noun} limit is ${f.sign ? '-' : ''}${renderCount(f.value, f.form)} units [${n}].`;
    case 'percent': {
      const v =
        f.form === 'sign'
          ? `${f.value}%`
          : f.form === 'space'
            ? `${f.value} %`
            : f.form === 'word'
              ? `${f.value} percent`
              : `${f.value} per cent`;
      return `About ${v} of ${f.noun} records are archived [${n}].`;
    }
    case 'version':
      return `The ${f.noun} component ships as v${f.parts.join('.')} [${n}].`;
    case 'date': {
      const month = MONTHS[f.m - 1];
      const weekday = WEEKDAYS[(new Date(Date.UTC(f.y, f.m - 1, f.d)).getUTCDay() + (f.shift ?? 0)) % 7];
      const when =
        f.form === 'iso'
          ? `${f.y}-${pad(f.m)}-${pad(f.d)}`
          : f.form === 'mdy'
            ? `${month} ${f.d}, ${f.y}`
            : f.form === 'dmy'
              ? `${f.d} ${month} ${f.y}`
              : `${weekday}, ${month} ${f.d}, ${f.y}`;
      return `The ${f.noun} review took place on ${when} [${n}].`;
    }
    case 'quote':
      return quoteSentence(f.words.join(' '), f.marks, n);
  }
}

function quoteSentence(text: string, marks: readonly [string, string], n: number): string {
  return `One passage reads ${marks[0]}${capital(text)}.${marks[1]} [${n}]`;
}

export interface World {
  sources: Fact[][];
}

const noun = fc.constantFrom(...VOCAB);
const word = fc.constantFrom(...VOCAB);
const fact: fc.Arbitrary<Fact> = fc.oneof(
  fc.record({
    kind: fc.constant('count' as const),
    noun,
    value: fc.integer({ min: 2, max: 250_000 }),
    form: fc.constantFrom('plain' as const, 'comma' as const, 'k' as const, 'words' as const, 'script' as const),
  }),
  fc.record({
    kind: fc.constant('percent' as const),
    noun,
    value: fc.integer({ min: 2, max: 99 }),
    form: fc.constantFrom('sign' as const, 'space' as const, 'word' as const, 'per cent' as const),
  }),
  fc.record({
    kind: fc.constant('version' as const),
    noun,
    parts: fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 })),
  }),
  fc.record({
    kind: fc.constant('date' as const),
    noun,
    y: fc.integer({ min: 1995, max: 2035 }),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 28 }),
    form: fc.constantFrom('iso' as const, 'mdy' as const, 'dmy' as const, 'weekday' as const),
  }),
  fc.record({
    kind: fc.constant('quote' as const),
    words: fc.array(word, { minLength: 5, maxLength: 9 }),
    marks: fc.constantFrom(...MARKS),
  }),
);

/** Two sources of one to three facts each. */
export const worldArb: fc.Arbitrary<World> = fc
  .tuple(fc.array(fact, { minLength: 1, maxLength: 3 }), fc.array(fact, { minLength: 1, maxLength: 3 }))
  .map(([a, b]) => ({ sources: [a, b] }));

export function sourceText(facts: readonly Fact[]): string {
  return facts.map(sourceSentence).join(' ');
}

export function answerOf(world: World): string {
  return world.sources.flatMap((facts, i) => facts.map((f) => answerSentence(f, i + 1))).join(' ');
}

/** Whether the gate (trust checks) passes `answer` against the world's two sources. */
export function gatePasses(world: World, answer: string): boolean {
  const doc = makeDocument({ filename: 'p.md' });
  const state = stateWith({
    question: 'What do the records say?',
    opened: world.sources.map((facts, i) => makeChunk(doc, i, sourceText(facts))),
  });
  return trustIssues(answer, state).length === 0;
}

export const PERTURBATION_KINDS = ['digit', 'quote_char', 'marker_swap', 'date_shift', 'sign', 'weekday'] as const;
export type PerturbationKind = (typeof PERTURBATION_KINDS)[number];

/** Every numeric value a source states (as the generator knows it), for excluding coincidental matches. */
function valuesOf(facts: readonly Fact[]): Set<string> {
  const out = new Set<string>();
  for (const f of facts) {
    if (f.kind === 'count' || f.kind === 'percent') out.add(String(f.value));
    if (f.kind === 'version') {
      out.add(f.parts.join('.'));
      for (const p of f.parts) out.add(String(p));
    }
    if (f.kind === 'date') for (const v of [f.y, f.m, f.d]) out.add(String(v));
  }
  return out;
}

/**
 * The world's answer with one perturbation, or null when the perturbation does not apply (no such fact) or
 * would coincide with something the cited source does state.
 */
export function perturb(world: World, kind: PerturbationKind, pick: number, digit: number): string | null {
  const flat = world.sources.flatMap((facts, s) => facts.map((f, i) => ({ f, s, i })));
  const sentences = flat.map(({ f, s }) => answerSentence(f, s + 1));
  const candidates = flat.filter(({ f }) =>
    kind === 'digit'
      ? f.kind === 'count' || f.kind === 'percent' || f.kind === 'version'
      : kind === 'quote_char'
        ? f.kind === 'quote'
        : kind === 'date_shift' || kind === 'weekday'
          ? f.kind === 'date'
          : kind === 'sign'
            ? f.kind === 'count' && f.form !== 'words' && f.form !== 'k'
            : true,
  );
  if (candidates.length === 0) return null;
  const target = candidates[pick % candidates.length];
  if (!target) return null;
  const at = flat.indexOf(target);
  const own = world.sources[target.s] ?? [];
  const { f } = target;
  let changed: string | null = null;
  if (kind === 'digit' && (f.kind === 'count' || f.kind === 'percent')) {
    const s = String(f.value);
    const pos = pick % s.length;
    const old = Number(s[pos]);
    const next = (old + 1 + (digit % 9)) % 10;
    const value = Number(s.slice(0, pos) + String(next) + s.slice(pos + 1));
    if (value === f.value || valuesOf(own).has(String(value)) || (pos === 0 && next === 0)) return null;
    // A lone "one" is deliberately not read as a number (docs/gate.md): not a perturbation the gate claims to catch.
    if (f.kind === 'count' && f.form === 'words' && value === 1) return null;
    changed = answerSentence({ ...f, value } as Fact, target.s + 1);
  } else if (kind === 'digit' && f.kind === 'version') {
    const parts = [...f.parts] as [number, number, number];
    const p = pick % 3;
    parts[p] = ((parts[p] ?? 0) + 1 + (digit % 9)) % 31;
    if (valuesOf(own).has(parts.join('.'))) return null;
    changed = answerSentence({ ...f, parts }, target.s + 1);
  } else if (kind === 'date_shift' && f.kind === 'date') {
    const shift = 1 + (digit % 400);
    const d = new Date(Date.UTC(f.y, f.m - 1, f.d + shift));
    const moved = { ...f, y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() };
    if (moved.d > 28) moved.d = 28;
    if (moved.y === f.y && moved.m === f.m && moved.d === f.d) return null;
    if (own.some((o) => o.kind === 'date' && o.y === moved.y && o.m === moved.m && o.d === moved.d)) return null;
    changed = answerSentence(moved, target.s + 1);
  } else if (kind === 'quote_char' && f.kind === 'quote') {
    const text = f.words.join(' ');
    const letters = [...text].map((c, i) => ({ c, i })).filter((x) => /[a-z]/.test(x.c));
    const chosen = letters[pick % letters.length];
    if (!chosen) return null;
    const replacement = String.fromCharCode(97 + ((chosen.c.charCodeAt(0) - 97 + 1 + (digit % 25)) % 26));
    const altered = text.slice(0, chosen.i) + replacement + text.slice(chosen.i + 1);
    if (sourceText(own).toLowerCase().includes(altered.toLowerCase())) return null;
    changed = quoteSentence(altered, f.marks, target.s + 1);
  } else if (kind === 'sign' && f.kind === 'count') {
    changed = answerSentence({ ...f, sign: true }, target.s + 1);
  } else if (kind === 'weekday' && f.kind === 'date') {
    changed = answerSentence({ ...f, form: 'weekday', shift: 1 + (digit % 6) }, target.s + 1);
  } else if (kind === 'marker_swap') {
    const other = 1 - target.s;
    const facts = world.sources[other] ?? [];
    // The other source must not state this fact too.
    if (sourceText(facts).includes(sourceSentence(f).slice(0, -1))) return null;
    if (f.kind !== 'quote' && [...valuesOf([f])].every((v) => valuesOf(facts).has(v))) return null;
    if (f.kind === 'date' && facts.some((o) => o.kind === 'date' && o.y === f.y && o.m === f.m)) return null;
    if (f.kind === 'count' && f.form === 'words' && facts.some((o) => o.kind === 'count' && o.value === f.value))
      return null;
    changed = answerSentence(f, other + 1);
  }
  if (changed === null) return null;
  sentences[at] = changed;
  return sentences.join(' ');
}
