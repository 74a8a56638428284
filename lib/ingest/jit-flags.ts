/**
 * V8 tiering for bulk ingestion: optimise a function later (after 4x the default interrupt budget) and inline less
 * into it. Each parse worker is a fresh isolate that warms its own JIT, and on a corpus of many small PDFs that
 * warm-up (TurboFan compiles on V8's background threads of pdf.js, PDFium's glue, the layout analysis, the
 * tokenizer) cost about as much CPU as the parsing itself; with these flags fewer functions reach TurboFan and each
 * compile is smaller, while the hot loops still do (docs/benchmarks-ingest.md, "fourth pass"). The flags are
 * process-wide (every isolate, the parse workers included) and take effect for code that runs after this module
 * is evaluated, so the bulk CLI imports it first. Nothing else (the server, tests) sets them.
 */

import v8 from 'node:v8';

/** V8's default --interrupt-budget (V8 11.3, Node 20) is 66 KB of bytecode; 4x, measured in the pass above. */
const INTERRUPT_BUDGET = 4 * 66 * 1024;
/** Half V8's default cumulative inlining budget (920 bytes of bytecode). */
const MAX_INLINED_CUMULATIVE = 460;

v8.setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
v8.setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${MAX_INLINED_CUMULATIVE}`);
