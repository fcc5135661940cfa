// An agent server that misbehaves in one chosen way, for the tests of the
// console's sends (app/api/agent-send.test.ts, e2e/agent-faults.spec.ts).
// It answers POST /run_sse only, records what it was sent, and writes no store.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Misbehaviour =
  /** Each request as its app says: app `fault-<misbehaviour>` gets that misbehaviour. */
  | 'by-app'
  /** Answers a well-formed stream of two events. */
  | 'well'
  /** Accepts the request and never answers. */
  | 'hang'
  /** Sends one event, then nothing more. */
  | 'stall'
  /** Sends one event every 200 ms, for a minute (a run to cancel). */
  | 'trickle'
  | 'error-500'
  | 'html'
  | 'not-json'
  | 'not-an-event'
  /** The stream's `{"error": ...}` after one event, as both ADK servers send a failed run. */
  | 'agent-error'
  /** adk-js's answer for a session its store does not hold. */
  | 'session-missing'
  /** Sends one event, then closes the connection mid-line. */
  | 'broken';

export interface MisbehavingServer {
  url: string;
  /** The bodies of the requests received, parsed, and their headers. */
  requests: { body: unknown; headers: Record<string, string | string[] | undefined> }[];
  /** How many requests the client hung up on before the answer ended. */
  hangUps: number;
  close(): Promise<void>;
}

let counter = 0;
const event = (text: string) => ({
  id: `ev-${Date.now().toString(36)}-${(counter += 1)}`,
  invocationId: 'e-test',
  author: 'concierge',
  timestamp: Date.now() / 1000,
  content: { role: 'model', parts: [{ text }] },
  actions: { stateDelta: {} },
});
const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const SSE = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

export async function startMisbehavingServer(how: Misbehaviour, port = 0): Promise<MisbehavingServer> {
  const state: MisbehavingServer = { url: '', requests: [], hangUps: 0, close: async () => undefined };
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // Recorded as sent.
      }
      state.requests.push({ body, headers: request.headers });
      let ended = false;
      response.on('close', () => {
        if (!ended) state.hangUps += 1;
      });
      const end = (text?: string) => {
        ended = true;
        response.end(text);
      };
      if (request.method !== 'POST' || request.url !== '/run_sse') {
        response.writeHead(404, { 'content-type': 'application/json' });
        return end(JSON.stringify({ error: 'Not found' }));
      }
      const app = (body as { appName?: unknown } | null)?.appName;
      const chosen = how === 'by-app' && typeof app === 'string' ? (app.replace(/^fault-/, '') as Misbehaviour) : how;
      switch (chosen) {
        case 'well':
          response.writeHead(200, SSE);
          response.write(data(event('first')));
          return end(data(event('second')));
        case 'hang':
          return;
        case 'stall':
          response.writeHead(200, SSE);
          response.write(data(event('first')));
          return;
        case 'trickle': {
          response.writeHead(200, SSE);
          let sent = 0;
          const timer = setInterval(() => {
            sent += 1;
            if (sent > 300) {
              clearInterval(timer);
              return end();
            }
            response.write(data(event(`tick ${sent}`)));
          }, 200);
          response.on('close', () => clearInterval(timer));
          return;
        }
        case 'error-500':
          response.writeHead(500, { 'content-type': 'application/json' });
          return end(JSON.stringify({ detail: 'The model quota is exhausted.' }));
        case 'html':
          response.writeHead(200, { 'content-type': 'text/html' });
          return end('<html><body>Sign in to continue</body></html>');
        case 'not-json':
          response.writeHead(200, SSE);
          return end('data: {this is not json\n\n');
        case 'not-an-event':
          response.writeHead(200, SSE);
          return end(data({ hello: 'world' }));
        case 'agent-error':
          response.writeHead(200, SSE);
          response.write(data(event('first')));
          return end(data({ error: 'Tool remember_preference raised ValueError' }));
        case 'session-missing':
          response.writeHead(404, { 'content-type': 'application/json' });
          return end(JSON.stringify({ error: `Session not found: ${String((body as { sessionId?: unknown }).sessionId)}` }));
        case 'by-app':
        default:
          response.writeHead(400, { 'content-type': 'application/json' });
          return end(JSON.stringify({ error: `No misbehaviour for app ${String(app)}` }));
        case 'broken':
          response.writeHead(200, SSE);
          response.write(data(event('first')));
          // Later, so the first event is on the wire before the cut.
          setTimeout(() => {
            response.write('data: {"id": "half');
            ended = true;
            response.destroy();
          }, 50);
          return;
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** A URL where nothing listens (a port just closed). */
export async function downServerUrl(): Promise<string> {
  const server = await startMisbehavingServer('well');
  await server.close();
  return server.url;
}
