// Talking to a session's agent through its ADK API server: the send, whose
// answer is the agent's events as they come, one JSON object a line.
import { SendCancelled } from '../../agent-server/client';
import { agentServers } from '../../config';
import { sendMessageCommand, type AgentRun } from '../../commands/send-message';
import { getAgentSendLog, getStore, getStoreInfo } from '../../services';
import { isSessionServiceError } from '../../session-service/errors';
import { sendInput } from '../../validation/agent-send';
import { readJson } from '../body';
import { resultOf } from '../errors';
import { route } from '../handler';
import { parseWith } from '../../validation/issues';
import { sessionRefOf, type SessionParams } from '../params';
import { json } from '../respond';

/** One line of the answer. */
export type SendLine =
  { type: 'event'; event: unknown } | { type: 'done'; events: number } | { type: 'failed'; code: string; message: string };

const encoder = new TextEncoder();
const line = (value: SendLine) => encoder.encode(`${JSON.stringify(value)}\n`);

/** The run as lines: each event, then `done` or `failed`; a cancelled run just ends. */
function linesOf(run: AgentRun, controller: AbortController): ReadableStream<Uint8Array> {
  let events = 0;
  return new ReadableStream<Uint8Array>({
    async pull(stream) {
      try {
        const next = await run.next();
        if (next.done) {
          stream.enqueue(line({ type: 'done', events }));
          stream.close();
          return;
        }
        events += 1;
        stream.enqueue(line({ type: 'event', event: next.value }));
      } catch (error) {
        if (error instanceof SendCancelled) return stream.close();
        if (isSessionServiceError(error)) stream.enqueue(line({ type: 'failed', code: error.code, message: error.message }));
        else {
          console.error('A send to an agent failed in Statehouse:', error);
          stream.enqueue(
            line({
              type: 'failed',
              code: 'INTERNAL',
              message: 'Statehouse failed while passing on the answer (the server log has the details).',
            }),
          );
        }
        stream.close();
      }
    },
    async cancel() {
      // The client went away: stop the agent's run too.
      controller.abort();
      await run.return();
    },
  });
}

/**
 * Body `{"text": "..."}`: sends the text as the user's next message to the
 * agent server configured for the session's app (STATEHOUSE_AGENT_SERVERS)
 * and answers `application/x-ndjson`: `{"type": "event", "event": {...}}` for
 * each event the agent writes, then `{"type": "done", "events": N}` or
 * `{"type": "failed", "code", "message"}`. A refusal before the agent
 * answered is a status with `{"detail"}` (409 no server configured, 502/504
 * the server failed or did not answer).
 */
export const sendMessage = route<SessionParams>(async (request, params, principal) => {
  const ref = sessionRefOf(params);
  const { text, stateDelta } = parseWith(sendInput, (await readJson(request)) ?? null);
  const controller = new AbortController();
  request.signal.addEventListener('abort', () => controller.abort(), { once: true });
  const [store, info, log] = await Promise.all([getStore(), getStoreInfo(), getAgentSendLog()]);
  const context = { store, storeId: info.id, servers: agentServers(), log, actor: principal.name };
  const run = resultOf(await sendMessageCommand(context, { ...ref, text, stateDelta }, controller.signal));
  return new Response(linesOf(run, controller), {
    headers: {
      'content-type': 'application/x-ndjson; charset=utf-8',
      // no-transform: no proxy or compression may hold the lines back.
      'cache-control': 'no-store, no-transform',
      'x-accel-buffering': 'no',
    },
  });
});

/** `{"items": [...]}`: the session's newest sends from the console (who, when, the message, how each ended), newest first. */
export const listSends = route<SessionParams>(async (_request, params) => {
  const ref = sessionRefOf(params);
  const [info, log] = await Promise.all([getStoreInfo(), getAgentSendLog()]);
  return json({ items: await log.list(info.id, ref) });
});
