import type { ReactNode } from 'react';
import { ChatShell } from '@/components/chat/chat-shell';
import { requireUserForPage } from '@/lib/auth/session';
import { listConversations } from '@/lib/db/conversations';

/** The chat area: conversations sidebar (kept across conversation changes) beside the page. */
export default async function ChatLayout({ children }: { children: ReactNode }) {
  const user = await requireUserForPage('/chat');
  const conversations = await listConversations({ ownerId: user.id });
  return <ChatShell initialConversations={conversations}>{children}</ChatShell>;
}
