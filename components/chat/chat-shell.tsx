'use client';

import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import { ChatShellContext, type ChatShellValue, type ConversationItem } from './chat-shell-context';
import { ConversationSidebar } from './conversation-sidebar';

/** Chat layout: the conversations sidebar beside the chat view; keeps the list in sync as chats are created. */
export function ChatShell({
  initialConversations,
  children,
}: {
  initialConversations: ConversationItem[];
  children: ReactNode;
}) {
  const [conversations, setConversations] = useState(initialConversations);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [newChatNonce, setNewChatNonce] = useState(0);
  const [sidebarOpen, setSidebarOpen] = useState(false);

  const touchConversation = useCallback((c: { id: string; title: string }) => {
    setConversations((list) => {
      const now = new Date().toISOString();
      const existing = list.find((x) => x.id === c.id);
      const item: ConversationItem = existing
        ? { ...existing, updatedAt: now }
        : { id: c.id, title: c.title, createdAt: now, updatedAt: now };
      return [item, ...list.filter((x) => x.id !== c.id)];
    });
  }, []);

  const refreshConversations = useCallback(async () => {
    const { conversations: fresh } = await fetchJson<{ conversations: ConversationItem[] }>('/api/conversations');
    setConversations(fresh);
  }, []);

  const removeConversation = useCallback(
    (id: string) => setConversations((list) => list.filter((x) => x.id !== id)),
    [],
  );
  const renameConversationLocally = useCallback(
    (id: string, title: string) => setConversations((list) => list.map((x) => (x.id === id ? { ...x, title } : x))),
    [],
  );
  const startNewChat = useCallback(() => {
    setNewChatNonce((n) => n + 1);
    setSidebarOpen(false);
  }, []);

  const value = useMemo<ChatShellValue>(
    () => ({
      conversations,
      activeId,
      setActiveId,
      touchConversation,
      refreshConversations,
      removeConversation,
      renameConversationLocally,
      newChatNonce,
      startNewChat,
      sidebarOpen,
      setSidebarOpen,
    }),
    [
      conversations,
      activeId,
      touchConversation,
      refreshConversations,
      removeConversation,
      renameConversationLocally,
      newChatNonce,
      startNewChat,
      sidebarOpen,
    ],
  );

  return (
    <ChatShellContext.Provider value={value}>
      <div className="flex h-[calc(100dvh-3.5rem)] min-h-0">
        <ConversationSidebar />
        <div className="flex min-w-0 flex-1 flex-col">{children}</div>
      </div>
    </ChatShellContext.Provider>
  );
}
