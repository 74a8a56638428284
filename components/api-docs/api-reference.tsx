import clsx from 'clsx';
import { API_EXAMPLES } from '@/lib/http/api-examples';
import type { OpenApiDocument } from '@/lib/http/openapi';

type Operation = {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  'x-docuchat-scope': string;
  'x-internal'?: boolean;
  parameters?: { name: string; in: string; required: boolean; description?: string }[];
  requestBody?: { content: Record<string, { schema?: unknown; example?: unknown }>; description?: string };
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>;
};

const METHOD_STYLE: Record<string, string> = {
  get: 'bg-sky-50 text-sky-700 ring-sky-200',
  post: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  patch: 'bg-amber-50 text-amber-800 ring-amber-200',
  delete: 'bg-rose-50 text-rose-700 ring-rose-200',
};

const SCOPE_LABEL: Record<string, string> = {
  read: 'key: read',
  write: 'key: write',
  session: 'browser session only',
  public: 'public',
};

/** Text with `code` spans (the document's descriptions use backticks). */
function Prose({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) =>
        i % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string
          <code key={i} className="rounded bg-slate-100 px-1 font-mono text-[0.85em]">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

function Schema({ value }: { value: unknown }) {
  return (
    <pre className="max-h-96 overflow-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** A server-rendered reference of the OpenAPI document: examples first, then every operation by tag. */
export function ApiReference({ doc }: { doc: OpenApiDocument }) {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op: op as unknown as Operation })),
  );
  const tags = doc.tags.map((t) => t.name);
  return (
    <main className="mx-auto grid max-w-6xl gap-8 px-4 py-8 sm:px-6 lg:grid-cols-[12rem_minmax(0,1fr)]">
      <nav aria-label="Sections" className="hidden lg:block">
        <ul className="sticky top-6 flex flex-col gap-1 text-sm">
          <li>
            <a href="#examples" className="text-slate-600 hover:text-slate-900">
              Examples
            </a>
          </li>
          {tags.map((tag) => (
            <li key={tag}>
              <a href={`#tag-${tag.replace(/\W+/g, '-')}`} className="text-slate-600 hover:text-slate-900">
                {tag}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="flex min-w-0 flex-col gap-10">
        <section>
          <h1 className="text-2xl font-semibold tracking-tight">{doc.info.title}</h1>
          <p className="mt-2 max-w-3xl text-sm text-slate-600">
            <Prose text={doc.info.description} />
          </p>
          <p className="mt-2 text-sm text-slate-600">
            Base URL <code className="rounded bg-white px-1 font-mono">{doc.servers[0]?.url}</code>. Create a key under{' '}
            <a href="/settings/api-keys" className="font-medium text-brand-700 hover:underline">
              API keys
            </a>
            ; MCP clients connect to <code className="rounded bg-white px-1 font-mono">/api/mcp</code>.
          </p>
        </section>
        <section id="examples" className="flex flex-col gap-4">
          <h2 className="text-lg font-semibold">Examples</h2>
          <p className="text-sm text-slate-600">
            With <code className="font-mono">DOCUCHAT_URL</code> and <code className="font-mono">DOCUCHAT_KEY</code>{' '}
            set; these are the README&apos;s examples, which the test suite runs against the built app.
          </p>
          {API_EXAMPLES.map((example) => (
            <article key={example.title} className="rounded-xl border border-slate-200 bg-white p-4">
              <h3 className="font-medium text-slate-900">{example.title}</h3>
              <pre className="mt-2 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">
                {example.code}
              </pre>
            </article>
          ))}
        </section>
        {tags.map((tag) => (
          <section key={tag} id={`tag-${tag.replace(/\W+/g, '-')}`} className="flex flex-col gap-3">
            <h2 className="text-lg font-semibold">{tag}</h2>
            {operations
              .filter(({ op }) => op.tags.includes(tag))
              .map(({ path, method, op }) => (
                <details
                  key={op.operationId}
                  id={op.operationId}
                  className="group rounded-xl border border-slate-200 bg-white"
                  data-testid="api-operation"
                >
                  <summary className="flex cursor-pointer list-none flex-wrap items-center gap-2 p-3 sm:flex-nowrap">
                    <span
                      className={clsx(
                        'w-16 flex-none rounded px-2 py-0.5 text-center font-mono text-xs font-semibold uppercase ring-1',
                        METHOD_STYLE[method],
                      )}
                    >
                      {method}
                    </span>
                    <code className="min-w-0 break-all font-mono text-sm text-slate-900">{path}</code>
                    <span className="min-w-0 flex-1 text-sm text-slate-600 sm:truncate">{op.summary}</span>
                    <span className="flex-none rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">
                      {SCOPE_LABEL[op['x-docuchat-scope']] ?? op['x-docuchat-scope']}
                    </span>
                  </summary>
                  <div className="flex flex-col gap-3 border-t border-slate-100 p-3 text-sm">
                    {op.description ? (
                      <p className="text-slate-700">
                        <Prose text={op.description} />
                      </p>
                    ) : null}
                    {op.parameters?.length ? (
                      <div>
                        <h4 className="font-medium">Parameters</h4>
                        <ul className="mt-1 list-inside list-disc text-slate-700">
                          {op.parameters.map((p) => (
                            <li key={`${p.in}-${p.name}`}>
                              <code className="font-mono">{p.name}</code> ({p.in}
                              {p.required ? ', required' : ''}){p.description ? ` – ${p.description}` : ''}
                            </li>
                          ))}
                        </ul>
                      </div>
                    ) : null}
                    {op.requestBody ? (
                      <div>
                        <h4 className="font-medium">Request body ({Object.keys(op.requestBody.content).join(', ')})</h4>
                        {Object.values(op.requestBody.content)[0]?.example !== undefined ? (
                          <>
                            <p className="mt-1 text-xs text-slate-500">Example</p>
                            <Schema value={Object.values(op.requestBody.content)[0]?.example} />
                            <p className="mt-2 text-xs text-slate-500">Schema</p>
                          </>
                        ) : null}
                        {Object.values(op.requestBody.content)[0]?.schema ? (
                          <Schema value={Object.values(op.requestBody.content)[0]?.schema} />
                        ) : null}
                      </div>
                    ) : null}
                    <div>
                      <h4 className="font-medium">Responses</h4>
                      <ul className="mt-1 flex flex-col gap-1 text-slate-700">
                        {Object.entries(op.responses).map(([status, r]) => (
                          <li key={status}>
                            <code className="font-mono font-semibold">{status}</code> {r.description}
                          </li>
                        ))}
                      </ul>
                    </div>
                  </div>
                </details>
              ))}
          </section>
        ))}
      </div>
    </main>
  );
}
