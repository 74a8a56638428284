'use client';

import type { ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { citationNumber, remarkCitations } from '@/components/markdown/remark-citations';

const SAFE_URL = /^(https?:|mailto:|#)/i;

/** Only http(s), mailto and in-page links survive; javascript:, data:, vbscript: and the rest become inert. */
export function safeUrl(url: string): string {
  const trimmed = url.trim();
  return SAFE_URL.test(trimmed) ? trimmed : '';
}

/**
 * Markdown for text that may carry hostile markup (answers quote documents): no raw HTML (react-markdown
 * ignores it and rehype-sanitize cleans the rest), safe URLs only, and [n] markers as citation buttons.
 */
export function SafeMarkdown({
  text,
  onCite,
  knownCitations,
}: {
  text: string;
  onCite?: (n: number) => void;
  /** Markers outside this set render as plain text. */
  knownCitations?: ReadonlySet<number>;
}) {
  const components: Components = {
    a({ href, children }) {
      const n = citationNumber(href);
      if (n !== null) {
        if (!onCite || (knownCitations && !knownCitations.has(n))) return <span>[{n}]</span>;
        return (
          <button
            type="button"
            onClick={() => onCite(n)}
            className="mx-0.5 inline-flex items-center rounded bg-brand-50 px-1 font-mono text-[0.8em] font-semibold text-brand-700 ring-1 ring-brand-200 hover:bg-brand-100"
            aria-label={`Show source ${n}`}
            data-citation={n}
          >
            [{n}]
          </button>
        );
      }
      const url = href ? safeUrl(href) : '';
      if (!url) return <span>{children as ReactNode}</span>;
      return (
        <a href={url} target="_blank" rel="noopener noreferrer nofollow" className="text-brand-700 underline">
          {children as ReactNode}
        </a>
      );
    },
    img({ alt }) {
      // Images from document text are never fetched.
      return <span className="text-slate-500">[image{alt ? `: ${alt}` : ''}]</span>;
    },
  };
  return (
    <div className="prose-answer">
      <ReactMarkdown
        remarkPlugins={[remarkGfm, remarkCitations]}
        rehypePlugins={[rehypeSanitize]}
        urlTransform={(url) => safeUrl(url)}
        components={components}
        skipHtml
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
