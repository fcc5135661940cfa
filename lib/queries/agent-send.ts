// Sends a message to a session's agent from the browser and reads the
// answer's lines as they come (POST .../agent/send, lib/http/api/agent.ts).
import { queryOptions } from '@tanstack/react-query';
import type { SendRecord } from '../agent-server/send-log';
import { agentSendPath, agentSendsPath } from '../paths';
import type { SessionRef } from '../session-service/store';
import { sessionKeys } from './session';
import { ApiError, getJson, inPageStore } from './session-api';

/** An event as the agent server streamed it: what the console shows of it. */
export interface AgentEvent {
  id: string;
  author: string;
  invocationId?: string;
  content?: { parts?: { text?: string; functionCall?: { name?: string }; functionResponse?: { name?: string } }[] };
  actions?: { stateDelta?: Record<string, unknown> };
}

export type SendLine =
  { type: 'event'; event: AgentEvent } | { type: 'done'; events: number } | { type: 'failed'; code: string; message: string };

/**
 * Posts the message, then calls `onLine` for each line of the answer.
 * Rejects with an ApiError when the send is refused (its `detail`) or the
 * console cannot be reached; an abort through `signal` rejects with the abort.
 */
export async function sendToAgent(
  ref: SessionRef,
  text: string,
  signal: AbortSignal,
  onLine: (line: SendLine) => void,
  /** Session state the agent's runner applies with the message (a what-if branch). */
  stateDelta?: Record<string, unknown>,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(inPageStore(agentSendPath(ref)), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify(stateDelta ? { text, stateDelta } : { text }),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ApiError(0, 'The console could not be reached; nothing was sent.');
  }
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => null)) as { detail?: unknown } | null;
    throw new ApiError(response.status, typeof body?.detail === 'string' ? body.detail : `${response.status} ${response.statusText}`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    let chunk: ReadableStreamReadResult<string>;
    try {
      chunk = await reader.read();
    } catch (error) {
      if (signal.aborted) throw error;
      throw new ApiError(0, 'The connection to the console broke off; the events the agent wrote are in the timeline.');
    }
    if (chunk.done) break;
    buffer += chunk.value;
    let end: number;
    while ((end = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      if (line) onLine(JSON.parse(line) as SendLine);
    }
  }
}

/** How long a send is asked about while its log says it is still going. */
const OPEN_SEND_SECONDS = 600;

/** The session's newest sends from the console: refetched when a send ends. */
export function sendsOptions(ref: SessionRef) {
  return queryOptions({
    queryKey: [...sessionKeys.session(ref), 'agent-sends'] as const,
    queryFn: ({ signal }) => getJson<{ items: SendRecord[] }>(agentSendsPath(ref), signal),
    staleTime: 0,
    // A send still open is closed by the server a moment after its stream ends (or for good, if it died): ask again until
    // it says how it ended, for as long as a send can last.
    refetchInterval: (query) =>
      query.state.data?.items.some((send) => send.outcome === 'sending' && Date.now() / 1000 - send.startTime < OPEN_SEND_SECONDS)
        ? 1000
        : false,
  });
}
