import fc from 'fast-check';
import { answerOf, gatePasses, worldArb, sourceText } from '@/lib/agent/testing/gate-property';
const r = fc.check(fc.property(worldArb, (w) => gatePasses(w, answerOf(w))), { numRuns: 20000 });
if (r.failed) { const [w] = r.counterexample!; console.log(JSON.stringify(w), w.sources.map(sourceText), answerOf(w)); } else console.log('accept ok');
