import fc from 'fast-check';
import { gatePasses, perturb, worldArb, sourceText } from '@/lib/agent/testing/gate-property';
for (const kind of ['digit', 'quote_char', 'marker_swap', 'date_shift'] as const) {
  const r = fc.check(fc.property(worldArb, fc.nat(), fc.nat(), (w, pick, digit) => { const c = perturb(w, kind, pick, digit); if (c === null) return true; return !gatePasses(w, c); }), { numRuns: 20000 });
  if (r.failed) { const [w, p, d] = r.counterexample!; console.log(kind, JSON.stringify(w), p, d, '\n', w.sources.map(sourceText), '\n', perturb(w, kind, p, d)); } else console.log(kind, 'ok');
}
