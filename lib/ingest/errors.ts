/** The one error type of ingestion: a code to branch on and a reason a person can read. */

export type IngestErrorCode =
  | 'empty'
  | 'unsupported'
  | 'password-protected'
  | 'no-text'
  | 'malformed'
  | 'too-large'
  | 'zip-bomb'
  | 'xml-entities'
  | 'timeout'
  | 'out-of-memory'
  | 'aborted'
  | 'internal';

/** A file that cannot be ingested, with a reason fit to show to its owner (stored as the document's error). */
export class IngestError extends Error {
  readonly code: IngestErrorCode;

  constructor(code: IngestErrorCode, reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'IngestError';
    this.code = code;
  }
}
