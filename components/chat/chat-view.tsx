'use client';

import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import Link from 'next/link';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { EmptyState } from '@/components/empty-state';
import { MenuIcon, SparkIcon } from '@/components/icons';
import type { AgentCitation, AnswerStyle } from '@/lib/agent/types';
import type { ChatMessage } from '@/lib/chat/message';
import { AssistantMessage } from './assistant-message';
import { chatErrorText } from './chat-error';
import { useChatShell } from './chat-shell-context';
import { CitationPanel } from './citation-panel';
import { type ChatMode, Composer, type ComposerHandle } from './composer';
import type { BucketOption, ChatFilters, DocumentOption } from './filter-picker';
import { HealthBanner } from './health-banner';
import { asSession, asTraceEvent, messageText, researchRunIdOf } from './message-view';
import { ResearchPanel } from './research-panel';
import { suggestionsFor } from './suggestions';
import type { ToolCallEvent } from './trace-timeline';

export interface ChatViewProps {
  /** null: a new chat (the server creates the conversation and the URL becomes /chat/<id>). */
  conversationId: string | null;
  title: string | null;
  initialMessages: ChatMessage[];
  documents: DocumentOption[];
  buckets: BucketOption[];
}

const PREFS_KEY = 'docuchat.chat-prefs';

function readPrefs(): { mode: ChatMode; style: AnswerStyle } | null {
  try {
    const raw = JSON.parse(window.localStorage.getItem(PREFS_KEY) ?? 'null') as unknown;
    if (typeof raw !== 'object' || raw === null) return null;
    const { mode, style } = raw as { mode?: unknown; style?: unknown };
    const m: ChatMode = mode === 'quick' || mode === 'research' ? mode : 'agent';
    const s: AnswerStyle = style === 'detailed' || style === 'bullet' ? style : 'concise';
    return { mode: m, style: s };
  } catch {
    return null;
  }
}

/** The chat page's main area. A new chat remounts when "New chat" is pressed, even on the same route. */
export function ChatView(props: ChatViewProps) {
  const { newChatNonce } = useChatShell();
  return <ChatConversation key={props.conversationId ?? `new-${newChatNonce}`} {...props} />;
}

function ChatConversation({ conversationId, title: initialTitle, initialMessages, documents, buckets }: ChatViewProps) {
  const shell = useChatShell();
  const { setActiveId, touchConversation, refreshConversations, setSidebarOpen } = shell;
  // A new chat proposes its conversation id with the first question (the server uses it unless it is taken), so a
  // Stop pressed before the first byte still knows which conversation to reload.
  const conversationIdRef = useRef<string | null>(conversationId);
  const proposedIdRef = useRef<string>(conversationId ?? crypto.randomUUID());
  const [title, setTitle] = useState(initialTitle);
  const [mode, setMode] = useState<ChatMode>('agent');
  const [researchStarting, setResearchStarting] = useState(false);
  const [researchError, setResearchError] = useState<string | null>(null);
  const [answerStyle, setAnswerStyle] = useState<AnswerStyle>('concise');
  const [filters, setFilters] = useState<ChatFilters>({ bucketIds: [], documentIds: [] });
  const [citation, setCitation] = useState<AgentCitation | null>(null);
  const [runCalls, setRunCalls] = useState<Map<string, ToolCallEvent>>(() => new Map());
  const runCallsRef = useRef(runCalls);
  runCallsRef.current = runCalls;
  const [callsByMessage, setCallsByMessage] = useState<Map<string, Map<string, ToolCallEvent>>>(() => new Map());
  const [stoppedIds, setStoppedIds] = useState<Set<string>>(() => new Set());
  const composerRef = useRef<ComposerHandle>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);

  useEffect(() => {
    setActiveId(conversationId);
  }, [conversationId, setActiveId]);

  useEffect(() => {
    const prefs = readPrefs();
    if (prefs) {
      setMode(prefs.mode);
      setAnswerStyle(prefs.style);
    }
  }, []);

  const savePrefs = (next: { mode: ChatMode; style: AnswerStyle }) => {
    try {
      window.localStorage.setItem(PREFS_KEY, JSON.stringify(next));
    } catch {
      // storage unavailable: preferences last for this page only
    }
  };

  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatMessage>({
        api: '/api/chat',
        // The server reads only the last user message (history comes from the database): send just that.
        prepareSendMessagesRequest: ({ id, messages, body }) => {
          const lastUser = [...messages].reverse().find((m) => m.role === 'user');
          return {
            body: {
              ...body,
              id: conversationIdRef.current ?? proposedIdRef.current ?? id,
              messages: lastUser
                ? [{ id: lastUser.id, role: 'user', parts: [{ type: 'text', text: messageText(lastUser) }] }]
                : [],
            },
          };
        },
      }),
    [],
  );

  const { messages, sendMessage, status, stop, error, clearError, setMessages } = useChat<ChatMessage>({
    ...(conversationId ? { id: conversationId } : {}),
    messages: initialMessages,
    transport,
    onData: (part) => {
      if (part.type === 'data-session') {
        const session = asSession(part.data);
        if (!session?.conversationId) return;
        const isNew = conversationIdRef.current !== session.conversationId;
        conversationIdRef.current = session.conversationId;
        setTitle(session.title);
        touchConversation({ id: session.conversationId, title: session.title });
        if (isNew) {
          setActiveId(session.conversationId);
          window.history.replaceState(null, '', `/chat/${session.conversationId}`);
        }
      } else if (part.type === 'data-trace') {
        const event = asTraceEvent(part.data);
        if (event?.type === 'tool_call') setRunCalls((m) => new Map(m).set(event.id, event));
      }
    },
    onFinish: ({ message, isAbort }) => {
      setCallsByMessage((m) => new Map(m).set(message.id, runCallsRef.current));
      if (isAbort) setStoppedIds((s) => new Set(s).add(message.id));
      void refreshConversations().catch(() => {});
    },
  });

  const [syncing, setSyncing] = useState(false);
  const [stoppedEarly, setStoppedEarly] = useState(false);
  const running = status === 'submitted' || status === 'streaming' || syncing || researchStarting;

  /**
   * After Stop: the server keeps what the run produced and saves it (status `stopped`, or `complete` when it had
   * already finished). Show exactly what was saved: wait for the stored answer, then load the conversation.
   */
  const syncSaved = useCallback(
    async (asked: number) => {
      const id = conversationIdRef.current ?? proposedIdRef.current;
      const started = Date.now();
      while (Date.now() - started < 15_000) {
        const res = await fetch(`/api/conversations/${encodeURIComponent(id)}`, { cache: 'no-store' }).catch(
          () => null,
        );
        const body = res?.ok
          ? ((await res.json()) as { conversation: { id: string; title: string }; messages: ChatMessage[] })
          : null;
        const saved = body?.messages ?? [];
        // The question is message number `asked`; its answer is saved once a message follows it.
        if (body && saved.length > asked + 1 && saved[saved.length - 1]?.role === 'assistant') {
          const isNew = conversationIdRef.current !== body.conversation.id;
          conversationIdRef.current = body.conversation.id;
          setTitle(body.conversation.title);
          setMessages(saved);
          touchConversation({ id: body.conversation.id, title: body.conversation.title });
          if (isNew) {
            setActiveId(body.conversation.id);
            window.history.replaceState(null, '', `/chat/${body.conversation.id}`);
          }
          return true;
        }
        // The server never recorded the question (stopped before it arrived): nothing will be saved.
        if (saved.length <= asked && Date.now() - started > 2_000) return false;
        await new Promise((r) => setTimeout(r, 250));
      }
      return false;
    },
    [setMessages, touchConversation, setActiveId],
  );

  const stopRun = useCallback(async () => {
    if (syncing) return;
    const beforeFirstByte = status === 'submitted';
    const asked = messages.findLastIndex((m) => m.role === 'user');
    await stop();
    setSyncing(true);
    try {
      const saved = await syncSaved(Math.max(0, asked));
      if (!saved && beforeFirstByte) setStoppedEarly(true);
    } finally {
      setSyncing(false);
      void refreshConversations().catch(() => {});
    }
  }, [syncing, status, messages, stop, syncSaved, refreshConversations]);

  /** Research mode: the run is created on the server (with the two messages) and shown as a panel. */
  const startResearch = useCallback(
    async (text: string, activeFilters: { filters?: object }) => {
      setResearchStarting(true);
      setResearchError(null);
      try {
        const res = await fetch('/api/research', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            question: text,
            style: answerStyle,
            conversationId: conversationIdRef.current ?? proposedIdRef.current,
            ...activeFilters,
          }),
        });
        const body = (await res.json().catch(() => null)) as {
          run?: { id: string; conversationId: string | null; question: string };
          error?: { message?: string };
        } | null;
        if (!res.ok || !body?.run)
          throw new Error(body?.error?.message ?? `Could not start the research (${res.status}).`);
        const run = body.run;
        setMessages((ms) => [
          ...ms,
          { id: `research-q-${run.id}`, role: 'user', parts: [{ type: 'text', text }] },
          {
            id: `research-${run.id}`,
            role: 'assistant',
            parts: [{ type: 'data-research', id: `research-${run.id}`, data: { runId: run.id } }],
          },
        ]);
        if (run.conversationId) {
          const isNew = conversationIdRef.current !== run.conversationId;
          conversationIdRef.current = run.conversationId;
          const nextTitle = title ?? run.question.slice(0, 80);
          setTitle(nextTitle);
          touchConversation({ id: run.conversationId, title: nextTitle });
          if (isNew) {
            setActiveId(run.conversationId);
            window.history.replaceState(null, '', `/chat/${run.conversationId}`);
          }
        }
        void refreshConversations().catch(() => {});
      } catch (e) {
        setResearchError(e instanceof Error ? e.message : String(e));
      } finally {
        setResearchStarting(false);
      }
    },
    [answerStyle, setMessages, title, touchConversation, setActiveId, refreshConversations],
  );

  const send = useCallback(
    (text: string) => {
      if (!text.trim() || running) return;
      clearError();
      setStoppedEarly(false);
      setRunCalls(new Map());
      stickToBottom.current = true;
      const activeFilters =
        filters.bucketIds.length > 0 || filters.documentIds.length > 0 || (filters.meta?.length ?? 0) > 0
          ? {
              filters: {
                ...(filters.bucketIds.length ? { bucketIds: filters.bucketIds } : {}),
                ...(filters.documentIds.length ? { documentIds: filters.documentIds } : {}),
                ...(filters.meta?.length ? { meta: filters.meta } : {}),
              },
            }
          : {};
      if (mode === 'research') {
        void startResearch(text, activeFilters);
        return;
      }
      void sendMessage({ text }, { body: { mode, style: answerStyle, ...activeFilters } });
    },
    [running, clearError, filters, sendMessage, mode, answerStyle, startResearch],
  );

  // Follow the stream while the reader is at the bottom; leave them alone once they scroll up.
  useEffect(() => {
    const el = scrollerRef.current;
    if (!el) return;
    const onScroll = () => {
      stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 120;
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the messages change
  useEffect(() => {
    const el = scrollerRef.current;
    if (el && stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages]);

  /** Re-asks the question a message answered, as a new turn of the same conversation. */
  const retryFrom = (index: number) => {
    for (let j = index; j >= 0; j--) {
      const m = messages[j];
      if (m?.role === 'user') {
        send(messageText(m));
        return;
      }
    }
  };

  const errorText = chatErrorText(error) ?? researchError;
  const last = messages[messages.length - 1];
  const noDocuments = documents.length === 0;
  const suggestions = useMemo(() => suggestionsFor(documents), [documents]);

  return (
    <div className="flex min-h-0 flex-1">
      <section className="flex min-w-0 flex-1 flex-col" aria-label="Chat">
        <header className="flex h-12 flex-none items-center gap-2 border-b border-slate-200 bg-white px-3 sm:px-4">
          <button
            type="button"
            onClick={() => setSidebarOpen(true)}
            className="rounded-md p-1.5 text-slate-500 hover:bg-slate-100 md:hidden"
            aria-label="Show conversations"
          >
            <MenuIcon />
          </button>
          <h1 className="min-w-0 flex-1 truncate text-sm font-semibold text-slate-800" data-testid="chat-title">
            {title ?? 'New chat'}
          </h1>
          <span className="hidden text-xs text-slate-500 sm:inline">
            {documents.length} indexed document{documents.length === 1 ? '' : 's'}
          </span>
        </header>
        <HealthBanner />
        <div ref={scrollerRef} className="min-h-0 flex-1 overflow-y-auto" data-testid="chat-scroller">
          <div className="mx-auto flex max-w-3xl flex-col gap-6 px-3 py-6 sm:px-6">
            {messages.length === 0 ? (
              noDocuments ? (
                <EmptyState
                  title="Upload documents first"
                  action={
                    <Link
                      href="/documents"
                      className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
                    >
                      Go to Documents
                    </Link>
                  }
                >
                  Answers come only from your own documents. Upload a PDF, an Office or OpenDocument file, an e-mail, an
                  e-book, an image or a text file, wait until it shows <strong>Indexed</strong>, then come back to ask
                  about it.
                </EmptyState>
              ) : (
                <div className="pt-8 text-center sm:pt-16">
                  <div className="mx-auto mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
                    <SparkIcon className="h-6 w-6" />
                  </div>
                  <h2 className="text-xl font-semibold tracking-tight text-slate-900">Ask your documents</h2>
                  <p className="mx-auto mt-2 max-w-md text-sm text-slate-600">
                    Every answer is searched for in your {documents.length} indexed document
                    {documents.length === 1 ? '' : 's'}, checked against the sources, and cited with [n] you can click
                    to see the exact passage.
                  </p>
                  <ul className="mx-auto mt-8 grid max-w-2xl gap-2 sm:grid-cols-2" aria-label="Suggestions">
                    {suggestions.map((s) => (
                      <li key={s}>
                        <button
                          type="button"
                          onClick={() => send(s)}
                          className="h-full w-full rounded-lg border border-slate-200 bg-white px-4 py-3 text-left text-sm text-slate-700 shadow-sm transition hover:border-brand-300 hover:bg-brand-50/50"
                        >
                          {s}
                        </button>
                      </li>
                    ))}
                  </ul>
                </div>
              )
            ) : null}
            {messages.map((m, i) => {
              const isLast = i === messages.length - 1;
              if (m.role === 'user') {
                return (
                  <div key={m.id} className="flex justify-end" data-testid="user-message">
                    <p className="max-w-[85%] whitespace-pre-wrap break-words rounded-2xl rounded-br-md bg-brand-600 px-4 py-2.5 text-[0.95rem] text-white shadow-sm">
                      {messageText(m)}
                    </p>
                  </div>
                );
              }
              const researchId = researchRunIdOf(m);
              if (researchId) return <ResearchPanel key={m.id} runId={researchId} />;
              return (
                <AssistantMessage
                  key={m.id}
                  message={m}
                  running={isLast && running}
                  stoppedLocally={stoppedIds.has(m.id)}
                  calls={isLast && running ? runCalls : callsByMessage.get(m.id)}
                  onCite={setCitation}
                  errorText={isLast ? errorText : null}
                  onRetry={isLast && !running ? () => retryFrom(i) : undefined}
                  question={(() => {
                    const asked = messages[i - 1];
                    return asked?.role === 'user' ? messageText(asked) : undefined;
                  })()}
                />
              );
            })}
            {last?.role === 'user' && !running && (errorText || messages.length > 0) ? (
              <div className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800" role="alert">
                <span>
                  {errorText ??
                    (stoppedEarly
                      ? 'Stopped before anything was written for this question.'
                      : 'No answer was saved for this question. It may have been interrupted.')}
                </span>{' '}
                <button
                  type="button"
                  onClick={() => retryFrom(messages.length - 1)}
                  className="ml-2 rounded-md border border-red-300 bg-white px-2 py-0.5 text-xs font-medium hover:bg-red-100"
                >
                  Retry
                </button>
              </div>
            ) : null}
            {last?.role === 'user' && running ? (
              <p className="flex items-center gap-2 px-1 text-sm text-slate-500">
                <span className="inline-block h-2 w-2 animate-pulse rounded-full bg-brand-500" /> Starting…
              </p>
            ) : null}
          </div>
        </div>
        <div className="flex-none border-t border-slate-200 bg-slate-50/80 px-2 pt-2 pb-2 sm:px-6 sm:pt-3 sm:pb-4">
          <div className="mx-auto max-w-3xl">
            <Composer
              ref={composerRef}
              running={running}
              stopping={syncing}
              disabled={noDocuments}
              onSend={send}
              onStop={() => void stopRun()}
              mode={mode}
              onModeChange={(m) => {
                setMode(m);
                savePrefs({ mode: m, style: answerStyle });
              }}
              answerStyle={answerStyle}
              onStyleChange={(s) => {
                setAnswerStyle(s);
                savePrefs({ mode, style: s });
              }}
              filters={filters}
              onFiltersChange={setFilters}
              buckets={buckets}
              documents={documents}
            />
            <p className="mt-1.5 hidden text-center text-[0.7rem] text-slate-500 sm:block">
              Enter to send · Shift+Enter for a new line · Answers cite your documents only
            </p>
          </div>
        </div>
      </section>
      {citation ? (
        <CitationPanel
          key={`${citation.chunkId}-${citation.n}`}
          citation={citation}
          onClose={() => setCitation(null)}
        />
      ) : null}
    </div>
  );
}
