// POST /api/chat – the chat page's stream (AI SDK UI message stream: trace data parts, text, final result)
import { createUIMessageStream, createUIMessageStreamResponse } from 'ai';
import { withUser } from '@/lib/auth/with-user';
import type { ChatMessage } from '@/lib/chat/message';
import { answerRunInputOf, checkAgentRateLimit, runAnswerForUser } from '@/lib/chat/run-for-user';
import { getConfig } from '@/lib/config';
import { AppError } from '@/lib/errors';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';

export const dynamic = 'force-dynamic';
export const maxDuration = 600;

export const POST = withUser(apiRoutes['POST /api/chat'], async (request, { user }) => {
  const body = await readJson(request, apiRoutes['POST /api/chat'].body, {
    maxBytes: getConfig().requestLimits.agentBytes,
  });
  await checkAgentRateLimit(user.id);
  const abort = new AbortController();
  request.signal.addEventListener('abort', () => abort.abort(), { once: true });

  const stream = createUIMessageStream<ChatMessage>({
    async execute({ writer }) {
      const openDrafts = new Set<string>();
      const closeDrafts = () => {
        for (const id of openDrafts) writer.write({ type: 'text-end', id });
        openDrafts.clear();
      };
      writer.write({ type: 'start', messageMetadata: { createdAt: new Date().toISOString(), status: 'running' } });
      const { chatResult } = await runAnswerForUser(
        answerRunInputOf({ kind: 'chat', value: body }, { ownerId: user.id, signal: abort.signal }),
        {
          onSession: (s) =>
            writer.write({
              type: 'data-session',
              id: 'session',
              data: { conversationId: s.conversationId ?? '', answerId: s.answerId, title: s.title },
            }),
          onEvent: (event) => {
            if (event.type === 'token') {
              const id = `draft-${event.attempt}`;
              if (!openDrafts.has(id)) {
                closeDrafts();
                openDrafts.add(id);
                writer.write({ type: 'text-start', id });
              }
              writer.write({ type: 'text-delta', id, delta: event.text });
              return;
            }
            if (event.type === 'draft_rejected') closeDrafts();
            writer.write({ type: 'data-trace', id: event.id, data: event });
          },
        },
      );
      closeDrafts();
      writer.write({ type: 'data-result', id: `result-${chatResult.answerId}`, data: chatResult });
      writer.write({ type: 'finish', messageMetadata: { answerId: chatResult.answerId, status: chatResult.status } });
    },
    onError(error) {
      if (error instanceof AppError) return error.message;
      console.error('[chat] run failed', error);
      return 'The answer could not be completed. Please try again.';
    },
  });
  // no-transform: the server's gzip would otherwise hold back the first events until its buffer fills.
  return createUIMessageStreamResponse({
    stream,
    headers: { 'cache-control': 'no-store, no-transform', 'x-accel-buffering': 'no' },
  });
});
