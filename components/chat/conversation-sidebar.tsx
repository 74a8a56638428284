'use client';

import clsx from 'clsx';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ConfirmDialog, type ConfirmRequest } from '@/components/documents/confirm-dialog';
import { useReportError } from '@/components/error-toaster';
import { PencilIcon, PlusIcon, TrashIcon, XIcon } from '@/components/icons';
import { fetchJson } from '@/lib/client/fetch-json';
import { type ConversationItem, useChatShell } from './chat-shell-context';
import { groupConversations } from './conversation-groups';

function ConversationRow({
  item,
  active,
  onDelete,
}: {
  item: ConversationItem;
  active: boolean;
  onDelete: () => void;
}) {
  const { renameConversationLocally, setSidebarOpen } = useChatShell();
  const reportError = useReportError();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(item.title);
  const [saving, setSaving] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (editing) inputRef.current?.select();
  }, [editing]);

  async function save(event?: FormEvent) {
    event?.preventDefault();
    const title = draft.trim();
    if (!title || title === item.title) {
      setEditing(false);
      setDraft(item.title);
      return;
    }
    setSaving(true);
    try {
      const { conversation } = await fetchJson<{ conversation: ConversationItem }>(`/api/conversations/${item.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
      renameConversationLocally(item.id, conversation.title);
      setEditing(false);
    } catch (error) {
      reportError(error);
    } finally {
      setSaving(false);
    }
  }

  if (editing) {
    return (
      <li>
        <form onSubmit={save} className="flex items-center gap-1 rounded-md bg-white px-1 py-1 ring-1 ring-brand-300">
          <input
            ref={inputRef}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                setEditing(false);
                setDraft(item.title);
              }
            }}
            onBlur={() => void save()}
            disabled={saving}
            maxLength={200}
            aria-label="Conversation title"
            className="min-w-0 flex-1 rounded px-1.5 py-1 text-sm outline-none"
          />
        </form>
      </li>
    );
  }

  return (
    <li className="group relative">
      <Link
        href={`/chat/${item.id}`}
        onClick={() => setSidebarOpen(false)}
        aria-current={active ? 'page' : undefined}
        title={item.title}
        className={clsx(
          'block truncate rounded-md py-2 pr-16 pl-3 text-sm transition-colors',
          active ? 'bg-brand-50 font-medium text-brand-900' : 'text-slate-700 hover:bg-slate-100',
        )}
        data-testid="conversation-link"
      >
        {item.title}
      </Link>
      <div
        className={clsx(
          'absolute inset-y-0 right-1 flex items-center gap-0.5 opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100',
          active && 'opacity-100',
        )}
      >
        <button
          type="button"
          onClick={() => {
            setDraft(item.title);
            setEditing(true);
          }}
          className="rounded p-1.5 text-slate-500 hover:bg-white hover:text-slate-700"
          aria-label={`Rename conversation “${item.title}”`}
        >
          <PencilIcon className="h-3.5 w-3.5" />
        </button>
        <button
          type="button"
          onClick={onDelete}
          className="rounded p-1.5 text-slate-500 hover:bg-white hover:text-red-600"
          aria-label={`Delete conversation “${item.title}”`}
        >
          <TrashIcon className="h-3.5 w-3.5" />
        </button>
      </div>
    </li>
  );
}

/** The conversations list: newest first, grouped by day; rename inline, delete with confirmation, "New chat". */
export function ConversationSidebar() {
  const { conversations, activeId, removeConversation, startNewChat, sidebarOpen, setSidebarOpen } = useChatShell();
  const router = useRouter();
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const [now] = useState(() => new Date());
  const groups = groupConversations(conversations, now);
  const drawerRef = useRef<HTMLDivElement>(null);

  // The phone drawer is a modal: focus moves into it, Escape closes it (also from outside it), focus comes back.
  useEffect(() => {
    if (!sidebarOpen) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    drawerRef.current?.querySelector<HTMLElement>('nav a, nav button')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setSidebarOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      opener?.focus();
    };
  }, [sidebarOpen, setSidebarOpen]);

  function askDelete(item: ConversationItem) {
    setConfirm({
      title: 'Delete this conversation?',
      body: (
        <>
          “{item.title}” and its answers will be deleted. Shared links to its answers stop working. This cannot be
          undone.
        </>
      ),
      confirmLabel: 'Delete',
      onConfirm: async () => {
        await fetchJson<null>(`/api/conversations/${item.id}`, { method: 'DELETE' });
        removeConversation(item.id);
        if (item.id === activeId) {
          startNewChat();
          router.push('/chat');
        }
      },
    });
  }

  const panel = (
    <nav aria-label="Conversations" className="flex h-full w-72 flex-col border-r border-slate-200 bg-slate-50/80">
      <div className="flex items-center gap-2 p-3">
        <Link
          href="/chat"
          onClick={startNewChat}
          className="flex flex-1 items-center justify-center gap-1.5 rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700"
        >
          <PlusIcon /> New chat
        </Link>
        <button
          type="button"
          onClick={() => setSidebarOpen(false)}
          className="rounded-md p-2 text-slate-500 hover:bg-slate-200 md:hidden"
          aria-label="Close conversations"
        >
          <XIcon />
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-4">
        {groups.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-slate-500">
            No conversations yet. Ask a question to start one.
          </p>
        ) : (
          groups.map((group) => (
            <section key={group.label} className="mt-3 first:mt-0">
              <h2 className="px-3 pb-1 text-[0.7rem] font-semibold uppercase tracking-wide text-slate-500">
                {group.label}
              </h2>
              <ul className="space-y-0.5">
                {group.items.map((item) => (
                  <ConversationRow
                    key={item.id}
                    item={item}
                    active={item.id === activeId}
                    onDelete={() => askDelete(item)}
                  />
                ))}
              </ul>
            </section>
          ))
        )}
      </div>
    </nav>
  );

  return (
    <>
      <div className="hidden h-full md:block">{panel}</div>
      {sidebarOpen ? (
        <div
          ref={drawerRef}
          className="fixed inset-0 z-40 md:hidden"
          role="dialog"
          aria-modal="true"
          aria-label="Conversations"
        >
          <button
            type="button"
            className="absolute inset-0 bg-slate-900/30"
            aria-label="Close conversations"
            onClick={() => setSidebarOpen(false)}
          />
          <div className="relative h-full w-72 bg-slate-50 shadow-xl">{panel}</div>
        </div>
      ) : null}
      {confirm ? <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} /> : null}
    </>
  );
}
