// POST /api/research/:id/approve – run the approved plan and stream its events: Server-Sent Events
// (event: research | error), or NDJSON with `Accept: application/x-ndjson`. Closing the stream does not stop the
// run (POST /api/research/:id/cancel does).
import { withUser } from '@/lib/auth/with-user';
import { checkAgentRateLimit } from '@/lib/chat/run-for-user';
import { AppError } from '@/lib/errors';
import { apiRoutes } from '@/lib/http/api-routes';
import type { ResearchEvent } from '@/lib/research/events';
import { getResearchService } from '@/lib/research/for-user';

export const dynamic = 'force-dynamic';
export const maxDuration = 3600;

type Params = { id: string };

export const POST = withUser<Params>(
  apiRoutes['POST /api/research/{id}/approve'],
  async (request, { user, params }) => {
    await checkAgentRateLimit(user.id);
    const ndjson = (request.headers.get('accept') ?? '').includes('application/x-ndjson');
    const encoder = new TextEncoder();
    let send: (event: string, data: unknown) => void = () => {};
    const buffered: ResearchEvent[] = [];
    let live = false;
    // Claims the run before the response starts, so a wrong id or status answers with its HTTP status.
    const { done, detach } = await getResearchService().approve(user.id, params.id, (e) => {
      if (e.type === 'task_event' && e.event.type === 'token') return; // tokens stay in the task's own stream
      if (live) send('research', e);
      else buffered.push(e);
    });
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        let open = true;
        send = (event, data) => {
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
        for (const e of buffered.splice(0)) send('research', e);
        live = true;
        try {
          await done;
        } catch (error) {
          const appError = error instanceof AppError ? error : new AppError('internal:agent');
          send('error', appError.toBody().error);
        } finally {
          open = false;
          detach();
          try {
            controller.close();
          } catch {
            // already closed by the client
          }
        }
      },
      cancel() {
        detach();
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
  },
);
