// Posts one run to an agent server's /run_sse and reads its events as they
// come. Every way a server can misbehave ends in a domain error that says
// what happened (lib/session-service/errors.ts, agentFault); a cancel by the
// caller ends in SendCancelled. Either way the request is aborted, so the
// server stops the run (both ADK servers abort a run whose client left).
import { agentFault } from '../session-service/errors';
import type { AgentServer } from './config';
import type { RunRequest } from './run-request';
import { sseData, StreamTooLargeError } from './sse';
import { clip, streamMessage, type StreamedEvent } from './streamed-event';

/** The caller cancelled the send. */
export class SendCancelled extends Error {
  constructor() {
    super('The send was cancelled.');
    this.name = 'SendCancelled';
  }
}

/** How much of an error answer is read for its message. */
const ERROR_BODY_CHARS = 4096;

/** A server as messages name it: its configured id and where it is (the URL holds no credentials). */
export const serverName = (server: AgentServer) => `${server.url} (${server.id})`;

/** The network error's code (ECONNREFUSED, ENOTFOUND, ...), as undici reports it in `cause`. */
function networkCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/** The `detail` (adk-python, FastAPI) or `error` (adk-js) of an error answer, else its text. */
function errorDetail(text: string): string {
  try {
    const json = JSON.parse(text) as { detail?: unknown; error?: unknown };
    const said = json.detail ?? json.error;
    if (said !== undefined) return clip(typeof said === 'string' ? said : JSON.stringify(said));
  } catch {
    // Not JSON: the text itself.
  }
  return clip(text) || '(no body)';
}

/** A deadline that can be pushed back, aborting `controller` when it passes. */
function deadline(controller: AbortController, ms: number) {
  let expired = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      expired = true;
      controller.abort();
    }, ms);
  };
  arm();
  return { arm, clear: () => clearTimeout(timer), expired: () => expired };
}

/**
 * Starts the run: resolves when the server has begun an event stream (its
 * events then come from the generator), rejects with what went wrong before.
 */
export async function openRun(server: AgentServer, body: RunRequest, signal: AbortSignal): Promise<AsyncGenerator<StreamedEvent, void>> {
  if (signal.aborted) throw new SendCancelled();
  const controller = new AbortController();
  const onCancel = () => controller.abort();
  signal.addEventListener('abort', onCancel, { once: true });
  const timer = deadline(controller, server.timeoutMs);
  const seconds = `${server.timeoutMs / 1000} s`;
  // What a timeout interrupted: the answer's start, or the wait for its next event.
  const waiting = { for: 'start answering' };
  const fail = (error: unknown): never => {
    timer.clear();
    signal.removeEventListener('abort', onCancel);
    controller.abort();
    if (signal.aborted) throw new SendCancelled();
    if (timer.expired())
      throw agentFault('AGENT_TIMEOUT', `The agent server ${serverName(server)} did not ${waiting.for} within ${seconds}.`);
    throw error;
  };

  let response: Response;
  try {
    response = await fetch(`${server.url}/run_sse`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(server.header ? { [server.header.name]: server.header.value } : {}),
      },
      body: JSON.stringify(body),
      signal: controller.signal,
      redirect: 'error',
    });
  } catch (error) {
    const code = networkCode(error);
    return fail(agentFault('AGENT_UNREACHABLE', `The agent server ${serverName(server)} could not be reached${code ? ` (${code})` : ''}.`));
  }

  if (!response.ok) {
    let text = '';
    try {
      text = (await response.text()).slice(0, ERROR_BODY_CHARS);
    } catch (error) {
      return fail(error);
    }
    const detail = errorDetail(text);
    if (response.status === 404 && /session not found/i.test(detail)) {
      return fail(
        agentFault(
          'AGENT_SESSION_MISSING',
          `The agent server ${serverName(server)} has no session ${body.sessionId} in its store (${detail}): is it configured over the store this console serves?`,
        ),
      );
    }
    return fail(agentFault('AGENT_FAILED', `The agent server ${serverName(server)} answered ${response.status}: ${detail}`));
  }
  const type = response.headers.get('content-type') ?? '';
  if (!/^text\/event-stream\b/i.test(type) || !response.body) {
    return fail(
      agentFault(
        'AGENT_FAILED',
        `The agent server ${serverName(server)} answered ${type || 'without a content type'}, not an event stream.`,
      ),
    );
  }
  waiting.for = 'send its next event';
  return events(server, response.body, timer, fail, () => {
    timer.clear();
    signal.removeEventListener('abort', onCancel);
    controller.abort();
  });
}

async function* textChunks(body: ReadableStream<Uint8Array>, onChunk: () => void): AsyncGenerator<string, void> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onChunk();
      yield decoder.decode(value, { stream: true });
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    reader.releaseLock();
  }
}

async function* events(
  server: AgentServer,
  body: ReadableStream<Uint8Array>,
  timer: ReturnType<typeof deadline>,
  fail: (error: unknown) => never,
  close: () => void,
): AsyncGenerator<StreamedEvent, void> {
  const invalid = (why: string) =>
    agentFault('AGENT_FAILED', `The agent server ${serverName(server)} sent ${why}; the rest of its answer was not read.`);
  try {
    let data: AsyncGenerator<string, void>;
    try {
      data = sseData(textChunks(body, timer.arm));
    } catch (error) {
      return fail(error);
    }
    for (;;) {
      let next: IteratorResult<string, void>;
      try {
        next = await data.next();
      } catch (error) {
        if (error instanceof StreamTooLargeError) return fail(invalid(error.message));
        return fail(agentFault('AGENT_FAILED', `The agent server ${serverName(server)} broke off its answer.`));
      }
      if (next.done) return;
      const message = streamMessage(next.value);
      if (message.kind === 'invalid') return fail(invalid(message.why));
      if (message.kind === 'error') return fail(agentFault('AGENT_FAILED', `The agent failed: ${clip(message.message)}`));
      // A partial (token-streamed) event is never stored: only whole events match timeline rows.
      if (!message.event.partial) yield message.event;
    }
  } finally {
    close();
  }
}
