import type { AgentEvent } from '@/lib/agent/events';
import { normalize } from '@/lib/agent/gate/normalize';
import { runAgent } from '@/lib/agent/run-agent';
import type { AgentMode, AgentResult } from '@/lib/agent/types';
import { makeChunk, makeDocument, NO_MODELS } from './fixtures';
import { createMemoryCatalog } from './memory-catalog';
import { createMemoryChunkIndex } from './memory-chunk-index';
import { scriptedModel } from './mock-models';
import { FINAL_STEP, NO_CONSTRAINTS, qaPlan } from './script-steps';

/**
 * The trust gate's adversarial set: scripted-model drafts that the gate must block, and true drafts it must
 * accept, run through the public entry point (runAgent, agent and quick mode, and extractive mode). Each case
 * has its own owner and sources; in agent mode source i is opened as [i + 1] (one search and one open each).
 */

export const SOURCES = {
  rate: 'Rate limits. The public API allows 100 requests per minute per token. Clients that receive HTTP 429 must retry after 5 seconds with exponential backoff.',
  storage:
    'Storage quotas. Each workspace may store up to 10 GB of files. Exports larger than 1,500 rows are split into parts. About 30% of workspaces use more than half their quota.',
  release:
    'Release notes. Version 2.3.1 was published on 2024-03-03. The maintenance window runs from 02:00 to 04:00 UTC. Batch sizes range from 10-20 items.',
  retention:
    'Retention policy. Deleted files are kept for 30 days before they are purged. Legal holds override this retention period.',
  sql: 'Reindex procedure. To rebuild the orders index without blocking writes, run the following SQL:\nREINDEX TABLE CONCURRENTLY orders;\nThen check the progress view.',
  shell:
    'Backup procedure. Create the dump with:\n    pg_dump --format=custom --file=backup.dump app_db\nStore the dump off-site.',
  /** Decomposed accents (NFD). */
  nfd: 'Cafe\u0301 settings. The re\u0301sume\u0301 service caches entries for 500 seconds.',
  /** Soft hyphens inside words. */
  soft: 'Sync settings. The synchro\u00ADnisation job runs every 15 min\u00ADutes.',
  /** Non-breaking spaces. */
  nbsp: 'Upload settings. The upload limit is 25\u00A0MB per file and 100\u00A0files per batch.',
  /** A ligature and a zero-width space. */
  ligature: 'Config settings. The con\uFB01guration \uFB01le is read at start\u200Bup.',
  million: 'Archive facts. The archive holds 1.5 million records.',
  words: 'Queue facts. The queue accepts five hundred messages per second.',
  quorum: 'Quorum rules. A motion passes with 3/4 of the votes.',
  meetings:
    'Meetings. The board meets on the 2nd Tuesday of each month. Reports are due twice a year, and one and a half hours are set aside. Half of the seats are elected. Third-party auditors review the books.',
  survey: 'Survey. 50% of members voted; turnout fell by -12% compared with 2023.',
  pricing: 'Pricing. The Pro plan costs $20 per month. The EU plan costs 5,50 \u20AC per month.',
} as const;

export type SourceName = keyof typeof SOURCES;

export interface GateCase {
  id: string;
  /** The adversarial class. */
  kind: string;
  expect: 'block' | 'accept';
  mode: AgentMode | 'extractive';
  question: string;
  sources: SourceName[];
  /** The model's draft (repeated on every reprompt); unused in extractive mode. */
  draft: string;
  /** For block cases: a fragment the delivered answer must not contain. */
  bad?: string;
  /** For block cases: an error code the first validation must report. */
  code?: string;
}

const Q = 'What do the documents say about this?';

function block(
  id: string,
  kind: string,
  sources: SourceName[],
  draft: string,
  bad: string,
  code: string,
  extra: Partial<GateCase> = {},
): GateCase {
  return { id, kind, expect: 'block', mode: 'agent', question: Q, sources, draft, bad, code, ...extra };
}

function accept(
  id: string,
  kind: string,
  sources: SourceName[],
  draft: string,
  extra: Partial<GateCase> = {},
): GateCase {
  return { id, kind, expect: 'accept', mode: 'agent', question: Q, sources, draft, ...extra };
}

export const GATE_CASES: GateCase[] = [
  // Quotes across line breaks.
  block(
    'quote-linebreak-altered',
    'quote',
    ['rate'],
    'The guide says "The public API allows 1000 requests\nper minute per token." [1]',
    '1000 requests',
    'QUOTE_NOT_FOUND',
  ),
  block(
    'quote-linebreak-words',
    'quote',
    ['rate'],
    'It says "Clients that receive HTTP 429 must\nretry immediately" [1].',
    'retry immediately',
    'QUOTE_NOT_FOUND',
  ),
  accept(
    'quote-linebreak-true',
    'quote',
    ['rate'],
    'The guide says "The public API allows 100 requests\nper minute per token." [1]',
  ),
  // The question is never evidence.
  block(
    'quote-question-only',
    'quote',
    ['rate'],
    'Yes: "tokens never expire" [1].',
    'never expire',
    'QUOTE_NOT_FOUND',
    {
      question: 'Do the docs confirm that "tokens never expire"?',
    },
  ),
  // A quote verbatim in source 2 but credited to [1], marker after the period.
  block(
    'quote-wrong-source',
    'quote',
    ['rate', 'storage'],
    'The guide states "Each workspace may store up to 10 GB of files". [1]',
    'store up to 10 GB',
    'QUOTE_NOT_FOUND',
  ),
  accept(
    'quote-right-source-after-period',
    'marker',
    ['rate', 'storage'],
    'The guide states "Each workspace may store up to 10 GB of files". [2]',
  ),
  accept(
    'quotes-two-sources',
    'marker',
    ['rate', 'storage'],
    'Both limits apply: "Each workspace may store up to 10 GB of files." [2] Also, "The public API allows 100 requests per minute per token." [1]',
  ),
  // Quote styles.
  block(
    'quote-curly-altered',
    'quote',
    ['rate'],
    '\u201CThe public API allows 100 requests per hour per token.\u201D [1]',
    'per hour',
    'QUOTE_NOT_FOUND',
  ),
  accept(
    'quote-curly-true',
    'quote',
    ['rate'],
    '\u201CThe public API allows 100 requests per minute per token.\u201D [1]',
  ),
  block(
    'quote-guillemets-altered',
    'quote',
    ['retention'],
    'The policy reads \u00ABDeleted files are kept until they are purged\u00BB [1].',
    'kept until',
    'QUOTE_NOT_FOUND',
  ),
  accept(
    'quote-guillemets-true',
    'quote',
    ['retention'],
    'The policy reads \u00ABDeleted files are kept for 30 days before they are purged\u00BB [1].',
  ),
  block(
    'quote-single-altered',
    'quote',
    ['retention'],
    "The policy says 'legal holds extend this retention period' [1].",
    'extend this',
    'QUOTE_NOT_FOUND',
  ),
  accept(
    'quote-single-true',
    'quote',
    ['retention'],
    "The policy says 'Legal holds override this retention period' [1].",
  ),
  block(
    'quote-backtick-altered',
    'quote',
    ['sql'],
    'Run `REINDEX TABLE orders;` [1].',
    'REINDEX TABLE orders;',
    'QUOTE_NOT_FOUND',
  ),
  accept('quote-backtick-true', 'quote', ['sql'], 'Run `REINDEX TABLE CONCURRENTLY orders;` to rebuild the index [1].'),
  accept('quote-elided', 'quote', ['rate'], 'The guide says "The public API allows \u2026 per token." [1]'),
  block(
    'blockquote-altered',
    'quote',
    ['rate'],
    '> The public API allows 100 requests per second per token. [1]',
    'per second',
    'QUOTE_NOT_FOUND',
  ),
  // Numbers in every written form.
  block(
    'number-seconds-suffix',
    'number',
    ['rate'],
    'Clients that receive HTTP 429 retry after 3s [1].',
    '3s',
    'UNGROUNDED_NUMBER',
  ),
  accept('number-seconds-suffix-true', 'number', ['rate'], 'Clients that receive HTTP 429 retry after 5s [1].'),
  block(
    'number-gb',
    'number',
    ['storage'],
    'Each workspace may store up to 12GB of files [1].',
    '12GB',
    'UNGROUNDED_NUMBER',
  ),
  accept('number-gb-true', 'number', ['storage'], 'Each workspace may store up to 10GB of files [1].'),
  block(
    'number-k-suffix',
    'number',
    ['storage'],
    'Exports larger than 1.6k rows are split into parts [1].',
    '1.6k',
    'UNGROUNDED_NUMBER',
  ),
  accept('number-k-suffix-true', 'number', ['storage'], 'Exports larger than 1.5k rows are split into parts [1].'),
  block(
    'number-thousands',
    'number',
    ['storage'],
    'Exports larger than 15,000 rows are split into parts [1].',
    '15,000',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'number-words',
    'number',
    ['rate'],
    'The public API allows five hundred requests per minute per token [1].',
    'five hundred',
    'UNGROUNDED_NUMBER',
  ),
  accept('number-words-true', 'number', ['nfd'], 'The résumé service caches entries for five hundred seconds [1].'),
  accept('number-words-in-source', 'number', ['words'], 'The queue accepts 500 messages per second [1].'),
  block(
    'number-words-in-source-wrong',
    'number',
    ['words'],
    'The queue accepts 600 messages per second [1].',
    '600',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'number-percent',
    'number',
    ['storage'],
    'About 35 % of workspaces use more than half their quota [1].',
    '35 %',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'number-percent-words',
    'number',
    ['storage'],
    'About thirty-five percent of workspaces use more than half their quota [1].',
    'thirty-five',
    'UNGROUNDED_NUMBER',
  ),
  accept('number-percent-true', 'number', ['storage'], 'About 30 % of workspaces use more than half their quota [1].'),
  block('number-decimal', 'number', ['rate'], 'Clients retry after 5.5 seconds [1].', '5.5', 'UNGROUNDED_NUMBER'),
  block(
    'number-million',
    'number',
    ['million'],
    'The archive holds 2.5 million records [1].',
    '2.5 million',
    'UNGROUNDED_NUMBER',
  ),
  accept('number-million-true', 'number', ['million'], 'The archive holds 1,500,000 records [1].'),
  block(
    'number-date',
    'number',
    ['release'],
    'Version 2.3.1 was published on March 4, 2024 [1].',
    'March 4, 2024',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'number-date-day-first',
    'number',
    ['release'],
    'Version 2.3.1 was published on 4 March 2024 [1].',
    '4 March 2024',
    'UNGROUNDED_NUMBER',
  ),
  accept('number-date-true', 'number', ['release'], 'Version 2.3.1 was published on March 3, 2024 [1].'),
  block(
    'number-version',
    'number',
    ['release'],
    'Version 2.4.1 was published on 2024-03-03 [1].',
    '2.4.1',
    'UNGROUNDED_NUMBER',
  ),
  accept('number-version-true', 'number', ['release'], 'v2.3.1 was published in March 2024 [1].'),
  block(
    'number-range',
    'number',
    ['release'],
    'Batch sizes range from 10 to 25 items [1].',
    '25 items',
    'UNGROUNDED_NUMBER',
  ),
  accept('number-range-true', 'number', ['release'], 'Batch sizes range from 10\u201320 items [1].'),
  block(
    'number-time',
    'number',
    ['release'],
    'The maintenance window runs from 03:00 to 04:00 UTC [1].',
    '03:00',
    'UNGROUNDED_NUMBER',
  ),
  accept('number-time-true', 'number', ['release'], 'The maintenance window runs from 2 am to 4 am UTC [1].'),
  block(
    'number-table-cell',
    'number',
    ['rate'],
    '| Setting | Value |\n| --- | --- |\n| Rate limit | 200 requests per minute [1] |',
    '200',
    'UNGROUNDED_NUMBER',
  ),
  accept(
    'number-table-cell-true',
    'number',
    ['rate'],
    '| Setting | Value |\n| --- | --- |\n| Rate limit | 100 requests per minute [1] |',
  ),
  block(
    'number-list-inherited',
    'number',
    ['rate'],
    'The limits [1]:\n- 100 requests per minute per token\n- retry after 9 seconds',
    '9 seconds',
    'UNGROUNDED_NUMBER',
  ),
  accept(
    'number-list-inherited-true',
    'number',
    ['rate'],
    'The limits [1]:\n- 100 requests per minute per token\n- retry after 5 seconds',
  ),
  block(
    'number-heading',
    'number',
    ['rate'],
    '## Limit: 250 requests\nThe public API allows 100 requests per minute per token [1].',
    '250',
    'UNGROUNDED_NUMBER',
  ),
  // Code in every fence.
  block(
    'code-tilde-altered',
    'code',
    ['sql'],
    'Run this [1]:\n~~~sql\nREINDEX TABLE orders;\n~~~',
    'REINDEX TABLE orders;',
    'QUOTE_NOT_FOUND',
  ),
  accept('code-tilde-true', 'code', ['sql'], 'Run this [1]:\n~~~sql\nREINDEX TABLE CONCURRENTLY orders;\n~~~'),
  block(
    'code-indented-altered',
    'code',
    ['shell'],
    'Create the dump with [1]:\n\n    pg_dump --format=plain --file=backup.dump app_db\n',
    '--format=plain',
    'QUOTE_NOT_FOUND',
  ),
  accept(
    'code-indented-true',
    'code',
    ['shell'],
    'Create the dump with [1]:\n\n    pg_dump --format=custom --file=backup.dump app_db\n',
  ),
  block('code-uncited', 'code', ['sql'], 'Run:\n```\nDROP TABLE orders;\n```', 'DROP TABLE', 'QUOTE_NOT_FOUND'),
  // Admissions excuse only their own unit.
  block(
    'admission-excuses-other',
    'admission',
    ['rate'],
    'The documents do not say how long tokens last. Retries are unlimited for premium accounts.',
    'premium accounts',
    'UNCITED_CLAIM',
  ),
  block(
    'admission-but-clause',
    'admission',
    ['rate'],
    'The documents do not cover regions, but premium accounts get unlimited retries.',
    'premium accounts',
    'UNCITED_CLAIM',
  ),
  block(
    'admission-smuggled-number',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. The documents do not mention bursts above 700 requests.',
    '700',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'admission-world-negative',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. The gateway does not retry failed requests on behalf of clients.',
    'gateway does not retry',
    'UNCITED_CLAIM',
  ),
  accept(
    'admission-own-unit',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. The documents do not say whether the limit differs per region.',
  ),
  accept('admission-names-question-words', 'admission', ['rate'], 'The documents do not mention a "refund window".', {
    question: 'Do the documents mention a "refund window"?',
  }),
  block(
    'admission-joined-and',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. The documents do not say when tokens expire, and premium tokens are exempt from all limits.',
    'exempt from all limits',
    'UNCITED_CLAIM',
  ),
  block(
    'admission-joined-so',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. The documents do not say when tokens expire, so premium tokens never expire.',
    'never expire',
    'UNCITED_CLAIM',
  ),
  block(
    'admission-joined-which',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. The documents give no expiry for tokens, which means premium tokens are unlimited.',
    'premium tokens are unlimited',
    'UNCITED_CLAIM',
  ),
  block(
    'admission-joined-dash',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. The documents do not say when tokens expire \u2014 premium tokens are unlimited.',
    'premium tokens are unlimited',
    'UNCITED_CLAIM',
  ),
  block(
    'admission-joined-parenthesis',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. Premium tokens are exempt from all limits (this is not documented).',
    'exempt from all limits',
    'UNCITED_CLAIM',
  ),
  block(
    'admission-joined-comma',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. Not documented, premium tokens are unlimited.',
    'premium tokens are unlimited',
    'UNCITED_CLAIM',
  ),
  block(
    'admission-joined-colon',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. Not documented: premium tokens are unlimited.',
    'premium tokens are unlimited',
    'UNCITED_CLAIM',
  ),
  block(
    'admission-joined-plain-and',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. Premium tokens are unlimited and this is not documented.',
    'Premium tokens are unlimited',
    'UNCITED_CLAIM',
  ),
  block(
    'admission-nothing-contradicts',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. Nothing in the sources contradicts that premium tokens are unlimited.',
    'premium tokens are unlimited',
    'UNCITED_CLAIM',
  ),
  block(
    'admission-joined-telegraphic',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. The documents do not say when tokens expire, and premium tokens: unlimited.',
    'premium tokens: unlimited',
    'UNCITED_CLAIM',
  ),
  block(
    'admission-joined-quick',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. The documents do not say when tokens expire, and premium tokens are exempt from all limits.',
    'exempt from all limits',
    'UNCITED_CLAIM',
    { mode: 'quick', question: 'What are the public API rate limits per token?' },
  ),
  accept(
    'admission-lists-missing',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. The documents do not specify the price, the term, or the renewal date of the contract.',
  ),
  accept(
    'admission-aside-first',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. Unfortunately, the documents do not say when tokens expire, and they do not mention premium tokens.',
  ),
  accept(
    'admission-says-nothing',
    'admission',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. The documents say nothing about regional quotas.',
  ),
  block(
    'number-fold',
    'number',
    ['rate'],
    'The public API allows 100 requests per minute per token, a threefold rise [1].',
    'threefold',
    'UNGROUNDED_NUMBER',
  ),
  // The gate checks the text as the reader sees it (gate/rendered.ts): references, comments, tags and emphasis
  // inside a number change what the markdown shows.
  block(
    'rendered-entity-quote',
    'quote',
    ['retention'],
    'The policy says &quot;Legal holds extend this retention period&quot; [1].',
    'extend this',
    'QUOTE_NOT_FOUND',
  ),
  block(
    'rendered-entity-digits',
    'number',
    ['retention'],
    'Deleted files are kept for &#x39;&#x30; days before they are purged [1].',
    '90 days',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'rendered-emphasis-in-number',
    'number',
    ['storage'],
    'Each workspace may store up to **10**00 GB of files [1].',
    '1000 GB',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'rendered-comment-in-number',
    'number',
    ['storage'],
    'Each workspace may store up to 10<!-- -->00 GB of files [1].',
    '1000 GB',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'rendered-html-block',
    'quote',
    ['retention'],
    'Deleted files are kept for 30 days [1].\n\n<div>\nLegal holds never override this retention period.\n</div>',
    'never override',
    'UNCITED_CLAIM',
  ),
  block(
    'rendered-emphasis-quick',
    'quick',
    ['storage'],
    'Each workspace may store up to **10**00 GB of files [1].',
    '1000 GB',
    'UNGROUNDED_NUMBER',
    { mode: 'quick', question: 'How much may each workspace store under the storage quotas?' },
  ),
  block(
    'link-text-number',
    'number',
    ['storage'],
    'See [up to 1000 GB of files](https://example.com/quotas) [1].',
    '1000 GB',
    'UNGROUNDED_NUMBER',
  ),
  accept(
    'link-target-digits',
    'number',
    ['storage'],
    'Each workspace may store up to 10 GB of files, per the [storage guide](https://example.com/v3/quotas-2024) [1].',
  ),
  accept('link-marker', 'marker', ['storage'], 'Each workspace may store up to 10 GB of files [[1]](#source-1).'),
  accept(
    'rendered-entity-quote-true',
    'quote',
    ['retention'],
    'The policy says &ldquo;Deleted files are kept for 30 days before they are purged&rdquo; [1].',
  ),
  accept(
    'rendered-emphasis-true',
    'quote',
    ['storage'],
    '**Each workspace may store up to 10 GB of files** [1].<!-- drafted from the storage section -->',
  ),
  // An elision may not leave out a negation.
  block(
    'quote-elided-negation',
    'quote',
    ['sql'],
    'The guide says "To rebuild the orders index \u2026 blocking writes" [1].',
    'blocking writes',
    'QUOTE_NOT_FOUND',
  ),
  accept(
    'quote-elided-fair',
    'quote',
    ['rate'],
    'The guide says "Clients that receive HTTP 429 must retry \u2026 with exponential backoff" [1].',
  ),
  // Markers wherever punctuation falls.
  accept('marker-after-period', 'marker', ['rate'], 'The public API allows 100 requests per minute per token. [1]'),
  block(
    'marker-other-sentence',
    'marker',
    ['rate', 'storage'],
    'Each workspace may store up to 10 GB of files. The public API allows 100 requests per minute per token [1].',
    '10 GB',
    'UNCITED_CLAIM',
  ),
  // Normalisation: true quotes of sources with NFD accents, soft hyphens, no-break spaces, ligatures, zero-width.
  accept('norm-nfd', 'normalisation', ['nfd'], '"The r\u00E9sum\u00E9 service caches entries for 500 seconds." [1]'),
  accept('norm-soft-hyphen', 'normalisation', ['soft'], '"The synchronisation job runs every 15 minutes." [1]'),
  accept('norm-nbsp', 'normalisation', ['nbsp'], '"The upload limit is 25 MB per file" [1].'),
  accept('norm-ligature-zero-width', 'normalisation', ['ligature'], '"The configuration file is read at startup." [1]'),
  block(
    'norm-still-strict',
    'normalisation',
    ['nfd'],
    '"The resume service caches entries for 500 seconds." [1]',
    'resume service',
    'QUOTE_NOT_FOUND',
  ),

  // Red-team 2026-11-28 (docs/benchmarks-agent.md): values in other written forms.
  block(
    'rt-fraction-vulgar',
    'number',
    ['rate'],
    'Clients retry after \u00BE of a minute [1].',
    '\u00BE',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'rt-fraction-other',
    'number',
    ['quorum'],
    'A motion passes with \u2154 of the votes [1].',
    '\u2154',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'rt-fraction-words',
    'number',
    ['quorum'],
    'A motion passes with two thirds of the votes [1].',
    'two thirds',
    'UNGROUNDED_NUMBER',
  ),
  accept('rt-fraction-vulgar-true', 'number', ['quorum'], 'A motion passes with \u00BE of the votes [1].'),
  accept('rt-fraction-words-true', 'number', ['quorum'], 'A motion passes with three quarters of the votes [1].'),
  block(
    'rt-ordinal-word',
    'number',
    ['meetings'],
    'The board meets on the third Tuesday of each month [1].',
    'third Tuesday',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'rt-ordinal-digits',
    'number',
    ['meetings'],
    'The board meets on the 4th Tuesday of each month [1].',
    '4th',
    'UNGROUNDED_NUMBER',
  ),
  accept('rt-ordinal-true', 'number', ['meetings'], 'The board meets on the second Tuesday of each month [1].'),
  block(
    'rt-digits-arabic-indic',
    'number',
    ['rate'],
    'The public API allows \u0667\u0660\u0660 requests per minute per token [1].',
    '\u0667\u0660\u0660',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'rt-digits-devanagari',
    'number',
    ['rate'],
    'The public API allows \u096D\u0966\u0966 requests per minute per token [1].',
    '\u096D\u0966\u0966',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'rt-digits-arabic-decimal',
    'number',
    ['rate'],
    'Clients that receive HTTP 429 must retry after \u0665\u066B\u0665 seconds [1].',
    '\u0665\u066B\u0665',
    'UNGROUNDED_NUMBER',
  ),
  accept(
    'rt-digits-arabic-indic-true',
    'number',
    ['rate'],
    'The public API allows \u0661\u0660\u0660 requests per minute per token [1].',
  ),
  block(
    'rt-negative',
    'number',
    ['retention'],
    'Deleted files are kept for -30 days before they are purged [1].',
    '-30',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'rt-minus-sign',
    'number',
    ['survey'],
    'Turnout fell by \u221250% compared with 2023 [1].',
    '\u221250%',
    'UNGROUNDED_NUMBER',
  ),
  accept('rt-negative-magnitude-true', 'number', ['survey'], 'Turnout fell by 12% compared with 2023 [1].'),
  block(
    'rt-currency-unit',
    'number',
    ['rate'],
    'The public API costs \u20AC5 per 100 requests [1].',
    '\u20AC5',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'rt-currency-swap',
    'number',
    ['pricing'],
    'The Pro plan costs \u20AC20 per month [1].',
    '\u20AC20',
    'UNGROUNDED_NUMBER',
  ),
  accept(
    'rt-currency-code-true',
    'number',
    ['pricing'],
    'The Pro plan costs USD 20 per month; the EU plan costs EUR 5.50 [1].',
  ),
  accept('rt-currency-words-true', 'number', ['pricing'], 'The Pro plan costs 20 dollars per month [1].'),
  block(
    'rt-multiple-twice',
    'number',
    ['rate'],
    'Clients must retry twice after HTTP 429 [1].',
    'twice',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'rt-multiple-half',
    'number',
    ['rate'],
    'Clients must retry after half a minute [1].',
    'half a minute',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'rt-multiple-doubled',
    'number',
    ['rate'],
    'Premium tokens get double the 100 requests per minute [1].',
    'double',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'rt-and-a-half',
    'number',
    ['meetings'],
    'Two and a half hours are set aside [1].',
    'Two and a half',
    'UNGROUNDED_NUMBER',
  ),
  accept(
    'rt-multiple-true',
    'number',
    ['meetings'],
    'Reports are due two times a year, and 1.5 hours are set aside [1].',
  ),
  accept('rt-half-percent-true', 'number', ['survey'], 'Half of the members voted [1].'),
  accept('rt-compound-not-number', 'number', ['meetings'], 'Third-party auditors review the books [1].'),
  block(
    'rt-time-words',
    'number',
    ['release'],
    'The maintenance window starts at midnight UTC [1].',
    'midnight',
    'UNGROUNDED_NUMBER',
  ),
  block(
    'rt-weekday',
    'number',
    ['release'],
    'Version 2.3.1 was published on Monday, March 3, 2024 [1].',
    'Monday',
    'UNGROUNDED_NUMBER',
  ),
  accept('rt-weekday-true', 'number', ['release'], 'Version 2.3.1 was published on Sunday, March 3, 2024 [1].'),
  accept('rt-scientific-true', 'number', ['rate'], 'The public API allows 1e2 requests per minute per token [1].'),
  // Red-team 2026-11-28: quotation-mark look-alikes and elisions.
  block(
    'rt-quote-cjk',
    'quote',
    ['retention'],
    'It says \u300CLegal holds extend this retention period\u300D [1].',
    'extend this',
    'QUOTE_NOT_FOUND',
  ),
  accept(
    'rt-quote-cjk-true',
    'quote',
    ['retention'],
    'It says \u300CLegal holds override this retention period\u300D [1].',
  ),
  block(
    'rt-quote-fullwidth',
    'quote',
    ['retention'],
    'It says \uFF02Legal holds extend this retention period\uFF02 [1].',
    'extend this',
    'QUOTE_NOT_FOUND',
  ),
  block(
    'rt-quote-double-prime',
    'quote',
    ['retention'],
    'It says \u2033Legal holds extend this retention period\u2033 [1].',
    'extend this',
    'QUOTE_NOT_FOUND',
  ),
  block(
    'rt-quote-modifier-letter',
    'quote',
    ['retention'],
    'It says \u02BALegal holds extend this retention period\u02BA [1].',
    'extend this',
    'QUOTE_NOT_FOUND',
  ),
  block(
    'rt-quote-low-single',
    'quote',
    ['retention'],
    'It says \u201ALegal holds extend this retention period\u2018 [1].',
    'extend this',
    'QUOTE_NOT_FOUND',
  ),
  block(
    'rt-quote-html-q',
    'quote',
    ['retention'],
    'It says <q>Legal holds extend this retention period</q> [1].',
    'extend this',
    'QUOTE_NOT_FOUND',
  ),
  block(
    'rt-quote-html-blockquote',
    'quote',
    ['retention'],
    '<blockquote>Legal holds extend this retention period</blockquote> [1]',
    'extend this',
    'QUOTE_NOT_FOUND',
  ),
  block(
    'rt-elision-splice',
    'quote',
    ['retention'],
    'The policy says "Deleted files are kept [...] this retention period" [1].',
    'kept [...] this',
    'QUOTE_NOT_FOUND',
  ),
  accept(
    'rt-elision-whole-sentences',
    'quote',
    ['retention'],
    'The policy says "Deleted files are ... purged. Legal holds ..." [1].',
  ),
  // Red-team 2026-11-28: claims in table rows and headings.
  block(
    'rt-table-row-uncited',
    'structure',
    ['rate'],
    '| Plan | Limit |\n| --- | --- |\n| Public | 100 requests per minute [1] |\n| Premium | unlimited |',
    'unlimited',
    'UNCITED_CLAIM',
  ),
  accept(
    'rt-table-intro-true',
    'structure',
    ['rate'],
    'The limits [1]:\n\n| Limit | Value |\n| --- | --- |\n| Requests | 100 per minute |\n| Retry | 5 seconds |',
  ),
  block(
    'rt-heading-claim',
    'structure',
    ['rate'],
    '## Premium tokens are exempt from all limits\nThe public API allows 100 requests per minute per token [1].',
    'Premium tokens',
    'UNCITED_CLAIM',
  ),
  block(
    'rt-bold-heading-claim',
    'structure',
    ['rate'],
    '**Premium tokens are exempt**\nClients that receive HTTP 429 must retry after 5 seconds [1].',
    'Premium',
    'UNCITED_CLAIM',
  ),
  accept(
    'rt-heading-label-true',
    'structure',
    ['rate'],
    '## Summary\nThe public API allows 100 requests per minute per token [1].',
  ),
  accept(
    'rt-heading-evidence-words-true',
    'structure',
    ['rate'],
    '## Rate limits per token\nThe public API allows 100 requests per minute per token [1].',
  ),
  block(
    'rt-quick-fraction',
    'quick',
    ['quorum'],
    'A motion passes with \u2154 of the votes [1].',
    '\u2154',
    'UNGROUNDED_NUMBER',
    {
      mode: 'quick',
      question: 'What share of the votes does a motion need under the quorum rules?',
    },
  ),
  // Quick mode runs the same gate.
  block(
    'quick-number',
    'quick',
    ['rate'],
    'The public API allows 150 requests per minute per token [1].',
    '150',
    'UNGROUNDED_NUMBER',
    {
      mode: 'quick',
      question: 'What are the public API rate limits per token?',
    },
  ),
  block(
    'quick-quote',
    'quick',
    ['rate'],
    'Per the guide, "tokens never expire" [1].',
    'never expire',
    'QUOTE_NOT_FOUND',
    {
      mode: 'quick',
      question: 'Do public API rate limits say "tokens never expire"?',
    },
  ),
  block(
    'quick-uncited',
    'quick',
    ['rate'],
    'The public API allows 100 requests per minute per token [1]. Premium tokens are exempt from all limits.',
    'Premium tokens',
    'UNCITED_CLAIM',
    { mode: 'quick', question: 'What are the public API rate limits per token?' },
  ),
  accept('quick-true', 'quick', ['rate'], 'The public API allows 100 requests per minute per token [1].', {
    mode: 'quick',
    question: 'What are the public API rate limits per token?',
  }),
  // Extractive mode quotes sources verbatim; the gate accepts them whatever their encoding.
  accept('extractive-nfd', 'extractive', ['nfd'], '', {
    mode: 'extractive',
    question: 'How long does the résumé service cache entries?',
  }),
  accept('extractive-soft-hyphen', 'extractive', ['soft'], '', {
    mode: 'extractive',
    question: 'How often does the synchronisation job run?',
  }),
  accept('extractive-nbsp', 'extractive', ['nbsp'], '', {
    mode: 'extractive',
    question: 'What is the upload limit per file?',
  }),
];

let owners = 0;
const TAGS = ['kestrawn', 'bolvique', 'trennish', 'marplode'] as const;

export interface GateRun {
  result: AgentResult;
  events: AgentEvent[];
  /** The first draft validation of the run. */
  first: { passed: boolean; codes: string[] } | null;
}

/** Runs one case through runAgent with its own owner and sources. */
export async function runGateCase(c: GateCase): Promise<GateRun> {
  owners += 1;
  const ownerId = `gate-owner-${owners}`;
  const index = createMemoryChunkIndex();
  const docs = c.sources.map((name, i) =>
    makeDocument({ filename: `${name}.md`, ownerId, title: `${name} ${TAGS[i] ?? ''}`.trim() }),
  );
  const tagged = c.mode === 'agent';
  await index.upsert(
    c.sources.map((name, i) =>
      makeChunk(
        docs[i] ?? makeDocument({ filename: 'x.md' }),
        0,
        tagged ? `${SOURCES[name]}\n${TAGS[i]}` : SOURCES[name],
      ),
    ),
  );
  const catalog = createMemoryCatalog(docs);
  const steps = c.sources.flatMap((_, i) => [
    { action: 'tool_call', calls: [{ tool: 'search_docs', query: TAGS[i] }] },
    { action: 'tool_call', calls: [{ tool: 'open_citation', handle: `r${i + 1}` }] },
  ]);
  const plan = qaPlan([TAGS[0]]);
  const model =
    c.mode === 'extractive'
      ? null
      : scriptedModel({ json: [NO_CONSTRAINTS, plan, ...steps, FINAL_STEP], texts: [c.draft] });
  const events: AgentEvent[] = [];
  const result = await runAgent(
    { question: c.question, ownerId, mode: c.mode === 'quick' ? 'quick' : 'agent', style: 'concise' },
    {
      index,
      catalog,
      embedder: null,
      models: model
        ? { decision: model, synthesis: null, names: { decision: 'mock', synthesis: null, embedding: null } }
        : NO_MODELS,
    },
    (e) => events.push(e),
  );
  const v = events.find((e) => e.type === 'validation' && e.stage === 'draft');
  const first = v && v.type === 'validation' ? { passed: v.passed, codes: v.errors.map((e) => e.code) } : null;
  return { result, events, first };
}

/** Whether a run met its case: blocked (first draft rejected with the code, fragment absent) or accepted. */
export function judgeGateCase(c: GateCase, run: GateRun): { ok: boolean; why: string } {
  // The report lists the user's queries verbatim; that line is the user's text, not a claim.
  const answer = normalize(run.result.answer.replace(/^- Searched: .*$/m, ''));
  if (c.expect === 'accept') {
    const ok = run.first?.passed === true && run.result.validated && run.result.status === 'complete';
    return { ok, why: ok ? 'accepted' : `not accepted: ${JSON.stringify(run.first)} answer=${run.result.answer}` };
  }
  const rejected = run.first !== null && !run.first.passed && (!c.code || run.first.codes.includes(c.code));
  const absent = !c.bad || !answer.includes(normalize(c.bad));
  const ok = rejected && absent && run.result.answer.trim() !== c.draft.trim();
  return {
    ok,
    why: ok
      ? 'blocked'
      : `not blocked: first=${JSON.stringify(run.first)} absent=${absent} answer=${run.result.answer}`,
  };
}
