// Sends a message to the agent of a session through the agent's own ADK API
// server, for the console and the API alike. The agent writes its events to
// its store itself; Statehouse writes only its send log. The send is refused
// before anything is called when no server is configured for the app, the
// session is unknown, or the log cannot be written.
import { z } from 'zod';
import { agentServerFor, type AgentServerConfig } from '../agent-server/config';
import { openRun, SendCancelled } from '../agent-server/client';
import { runRequest } from '../agent-server/run-request';
import type { AgentSendLog, SendDetail } from '../agent-server/send-log';
import type { StreamedEvent } from '../agent-server/streamed-event';
import { agentFault, isSessionServiceError, sessionNotFound } from '../session-service/errors';
import type { SessionStore } from '../session-service/store';
import { sendInput } from '../validation/agent-send';
import { fieldErrorsOf, idSchema } from '../validation/schemas';
import { attempt, invalid, type ActionResult } from './result';

export interface SendContext {
  store: SessionStore;
  /** The served store's id: which configured server answers for it. */
  storeId: string;
  servers: AgentServerConfig;
  log: AgentSendLog;
  actor: string;
}

export const sendCommandInput = z.object({ appName: idSchema, userId: idSchema, sessionId: idSchema }).extend(sendInput.shape);
export type SendCommandInput = z.input<typeof sendCommandInput>;

/** The events the agent streams, in order; the generator throws a domain error on a fault and SendCancelled on a cancel. */
export type AgentRun = AsyncGenerator<StreamedEvent, void>;

export async function sendMessageCommand(context: SendContext, raw: unknown, signal: AbortSignal): Promise<ActionResult<AgentRun>> {
  const parsed = sendCommandInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { text, stateDelta, ...ref } = parsed.data;
  const { store, storeId, servers, log, actor } = context;
  return attempt(async () => {
    const server = agentServerFor(servers.servers, storeId, ref.appName);
    if (!server) {
      throw agentFault(
        'NO_AGENT_SERVER',
        servers.problem ?? `No agent server is configured for app ${ref.appName} of store ${storeId} (STATEHOUSE_AGENT_SERVERS).`,
      );
    }
    if (!(await store.getSessionSummary(ref))) throw sessionNotFound(ref.sessionId);
    const sendId = await log.start({ ...ref, storeId, actor, server: `${server.id} ${server.url}`, message: text });
    const eventIds: string[] = [];
    const close = async (outcome: 'done' | 'failed' | 'cancelled', detail: SendDetail) => {
      // The send happened whatever the log says: a log that cannot be closed must not turn it into a failure.
      await log.finish(sendId, outcome, detail).catch((error: unknown) => console.error('The send log could not be closed:', error));
    };
    const ended = (error: unknown) =>
      error instanceof SendCancelled
        ? close('cancelled', { eventIds })
        : close('failed', {
            eventIds,
            error: isSessionServiceError(error)
              ? { code: error.code, message: error.message }
              : { code: 'INTERNAL', message: 'Statehouse failed while reading the answer.' },
          });
    let events: AgentRun;
    try {
      events = await openRun(server, runRequest(ref, text, stateDelta), signal);
    } catch (error) {
      await ended(error);
      throw error;
    }
    return (async function* run(): AgentRun {
      let finished = false;
      try {
        for await (const event of events) {
          eventIds.push(event.id);
          yield event;
        }
        finished = true;
        await close('done', { eventIds });
      } catch (error) {
        finished = true;
        await ended(error);
        throw error;
      } finally {
        // The reader stopped early (the browser went away): the run was cut off.
        if (!finished) await close('cancelled', { eventIds });
      }
    })();
  });
}
