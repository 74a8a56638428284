import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ChatView } from '@/components/chat/chat-view';
import { requireUserForPage } from '@/lib/auth/session';
import { findConversation, listMessages } from '@/lib/db/conversations';
import { loadChatContext } from '../load-chat-data';

export const metadata: Metadata = { title: 'Chat' };

export default async function ConversationPage({ params }: { params: Promise<{ conversationId: string }> }) {
  const { conversationId } = await params;
  const user = await requireUserForPage(`/chat/${encodeURIComponent(conversationId)}`);
  const conversation = await findConversation({ ownerId: user.id, id: conversationId });
  if (!conversation) notFound();
  const [messages, { documents, buckets }] = await Promise.all([
    listMessages({ ownerId: user.id, conversationId: conversation.id }),
    loadChatContext(user.id),
  ]);
  return (
    <ChatView
      conversationId={conversation.id}
      title={conversation.title}
      initialMessages={messages}
      documents={documents}
      buckets={buckets}
    />
  );
}
