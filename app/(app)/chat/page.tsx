import type { Metadata } from 'next';
import { ChatView } from '@/components/chat/chat-view';
import { requireUserForPage } from '@/lib/auth/session';
import { loadChatContext } from './load-chat-data';

export const metadata: Metadata = { title: 'Chat' };

export default async function ChatPage() {
  const user = await requireUserForPage('/chat');
  const { documents, buckets } = await loadChatContext(user.id);
  return <ChatView conversationId={null} title={null} initialMessages={[]} documents={documents} buckets={buckets} />;
}
