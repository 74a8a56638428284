// POST /api/agent/stream – run the agent and stream its events: Server-Sent Events (event: trace | token |
// complete | error), or NDJSON with `Accept: application/x-ndjson`
import { withUser } from '@/lib/auth/with-user';
import { answerRunInputOf, checkAgentRateLimit, runAnswerForUser } from '@/lib/chat/run-for-user';
import { getConfig } from '@/lib/config';
import { AppError } from '@/lib/errors';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';
import { getResearchService, researchStartOf } from '@/lib/research/for-user';

export const dynamic = 'force-dynamic';
export const maxDuration = 600;

export const POST = withUser(apiRoutes['POST /api/agent/stream'], async (request, { user }) => {
  const body = await readJson(request, apiRoutes['POST /api/agent/stream'].body, {
    maxBytes: getConfig().requestLimits.agentBytes,
  });
  await checkAgentRateLimit(user.id);
  const ndjson = (request.headers.get('accept') ?? '').includes('application/x-ndjson');
  const encoder = new TextEncoder();
  const abort = new AbortController();
  request.signal.addEventListener('abort', () => abort.abort(), { once: true });

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true;
      const send = (event: string, data: unknown) => {
        if (!open) return;
        const line = ndjson
          ? `${JSON.stringify({ event, data })}\n`
          : `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
        try {
          controller.enqueue(encoder.encode(line));
        } catch {
          open = false;
        }
      };
      try {
        if (body.mode === 'research') {
          send('research', { run: await getResearchService().start(user.id, researchStartOf(body)) });
          return;
        }
        const { session, chatResult, result } = await runAnswerForUser(
          answerRunInputOf(
            { kind: 'agent', value: { ...body, mode: body.mode } },
            { ownerId: user.id, signal: abort.signal },
          ),
          {
            onSession: (s) => send('session', s),
            onEvent: (e) => send(e.type === 'token' ? 'token' : 'trace', e),
          },
        );
        send('complete', {
          ...chatResult,
          conversationId: session.conversationId,
          ...(body.returnTrace ? { trace: result.trace } : {}),
        });
      } catch (error) {
        const appError = error instanceof AppError ? error : new AppError('internal:agent');
        if (!(error instanceof AppError)) console.error('[agent/stream] run failed', error);
        send('error', appError.toBody().error);
      } finally {
        open = false;
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      }
    },
    cancel() {
      abort.abort();
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': ndjson ? 'application/x-ndjson; charset=utf-8' : 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
});
