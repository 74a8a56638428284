'use client';

import { createContext, useContext } from 'react';

export interface ConversationItem {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

export interface ChatShellValue {
  conversations: ConversationItem[];
  /** The conversation shown in the main area (null: a new chat). */
  activeId: string | null;
  setActiveId: (id: string | null) => void;
  /** Adds or updates one conversation and moves it to the top (a new or continued chat). */
  touchConversation: (c: { id: string; title: string }) => void;
  refreshConversations: () => Promise<void>;
  removeConversation: (id: string) => void;
  renameConversationLocally: (id: string, title: string) => void;
  /** Bumped by "New chat" so the new-chat view starts empty even when its route is already showing. */
  newChatNonce: number;
  startNewChat: () => void;
  sidebarOpen: boolean;
  setSidebarOpen: (open: boolean) => void;
}

/** Provided by <ChatShell>; read by the sidebar and the chat view (a module apart so neither imports the shell). */
export const ChatShellContext = createContext<ChatShellValue | null>(null);

/** The chat pages' shared state: the conversation list (sidebar) and which conversation is open. */
export function useChatShell(): ChatShellValue {
  const value = useContext(ChatShellContext);
  if (!value) throw new Error('useChatShell must be used inside <ChatShell>');
  return value;
}
