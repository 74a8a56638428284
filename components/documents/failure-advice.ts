import type { IngestErrorCode } from '@/lib/ingest/errors';

/**
 * Why a document failed, whether Retry can help, and what to do instead. A failed document stores the reason
 * ingestion gave (lib/ingest: IngestError messages, and the worker's own messages for cancelled, interrupted and
 * unexpected failures); until the error code is stored beside it, the code is read back from the start of that
 * reason, which lib/ingest writes in fixed forms.
 */

export type FailureKind = IngestErrorCode | 'cancelled' | 'interrupted' | 'unknown';

export interface FailureAdvice {
  kind: FailureKind;
  /** True when processing the same file again can succeed. */
  retry: boolean;
  /** What the user can do (always set: "Retry" alone is advice too). */
  advice: string;
}

/** Reason prefixes as lib/ingest writes them, first match wins. */
const REASON_KINDS: readonly [RegExp, FailureKind][] = [
  [/^password-protected/i, 'password-protected'],
  [/^empty file/i, 'empty'],
  [/^no extractable text/i, 'no-text'],
  [/^(malformed|not a pdf|not a valid)\b/i, 'malformed'],
  [/^(unsupported file type|refused: the file is an executable)|\bare not supported\b/i, 'unsupported'],
  [/^refused: archive looks like a zip bomb/i, 'zip-bomb'],
  [/^refused: xml part/i, 'xml-entities'],
  [/^file too large:/i, 'too-large'],
  [/^parsing timed out/i, 'timeout'],
  [/^file too large to parse within the memory limit/i, 'out-of-memory'],
  [/^cancelled/i, 'cancelled'],
  [/^processing was interrupted/i, 'interrupted'],
  [/^(parser crashed|parser exited|parser failed|an unexpected error)/i, 'internal'],
];

const KNOWN_CODES = new Set<string>([
  'empty',
  'unsupported',
  'password-protected',
  'no-text',
  'malformed',
  'too-large',
  'zip-bomb',
  'xml-entities',
  'timeout',
  'out-of-memory',
  'aborted',
  'internal',
]);

const ADVICE: Record<FailureKind, FailureAdvice> = {
  'password-protected': {
    kind: 'password-protected',
    retry: false,
    advice: 'The file is locked with a password. Open it, save a copy without the password, and upload that copy.',
  },
  empty: { kind: 'empty', retry: false, advice: 'The file has no content. Upload the complete file.' },
  'no-text': {
    kind: 'no-text',
    retry: false,
    advice:
      'No text could be read from it (a scan or a picture of text). Upload a version with selectable text, for example one exported from the original program.',
  },
  malformed: {
    kind: 'malformed',
    retry: false,
    advice:
      'The file is damaged or is not what its name says. Open it in its program, save or export a fresh copy, and upload that.',
  },
  unsupported: {
    kind: 'unsupported',
    retry: false,
    advice: 'This format cannot be read. Save it as PDF, Word (.docx), Excel (.xlsx), CSV, HTML, Markdown or text.',
  },
  'zip-bomb': {
    kind: 'zip-bomb',
    retry: false,
    advice: 'The file expands to far more than its size and was refused. Save a fresh copy and upload that.',
  },
  'xml-entities': {
    kind: 'xml-entities',
    retry: false,
    advice: 'The file contains XML constructs that are refused for safety. Save a fresh copy and upload that.',
  },
  'too-large': {
    kind: 'too-large',
    retry: false,
    advice: 'The file is over the size limit. Split it into smaller files and upload those.',
  },
  timeout: {
    kind: 'timeout',
    retry: true,
    advice: 'Reading it took too long. Retry when the server is less busy; if it fails again, split the file.',
  },
  'out-of-memory': {
    kind: 'out-of-memory',
    retry: false,
    advice:
      'Reading it needs more memory than the server allows. Split the file, or ask the operator to raise the limit.',
  },
  aborted: { kind: 'aborted', retry: true, advice: 'Processing was stopped. Retry to process it again.' },
  cancelled: { kind: 'cancelled', retry: true, advice: 'Processing was cancelled. Retry to process it again.' },
  interrupted: {
    kind: 'interrupted',
    retry: true,
    advice: 'The server stopped while working on it. Retry to process it again.',
  },
  internal: {
    kind: 'internal',
    retry: true,
    advice: 'Something went wrong on the server. Retry; if it fails again, tell the operator.',
  },
  unknown: { kind: 'unknown', retry: true, advice: 'Retry; if it fails again, tell the operator.' },
};

/** The kind of failure: the stored code when there is one, else read from the stored reason. */
export function failureKind(doc: { error: string | null; errorCode?: string | null | undefined }): FailureKind {
  if (doc.errorCode && KNOWN_CODES.has(doc.errorCode)) return doc.errorCode as IngestErrorCode;
  const reason = (doc.error ?? '').trim();
  for (const [pattern, kind] of REASON_KINDS) if (pattern.test(reason)) return kind;
  return 'unknown';
}

/** Whether Retry can help a failed document, and what to do instead when it cannot. */
export function failureAdvice(doc: { error: string | null; errorCode?: string | null | undefined }): FailureAdvice {
  return ADVICE[failureKind(doc)];
}
