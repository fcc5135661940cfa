// The reference door of `npm run bench -- --api`: a plain node:http server
// answering the five measured operations at /api's paths with /api's JSON,
// through the same store code (openServices, the same body parsers, the same
// store calls and the same state view). No framework and no compression:
// the floor an HTTP door over this store can approach. With
// REFERENCE_AUTH=token (the bench sets it where /api runs protected) every
// request must carry an API token, checked as /api checks one (the account
// store's verified tokens), so both doors do the same authentication work.
// Run as `node --import tsx bench/reference-door.ts <database URL>`; prints
// `listening <port>` (an ephemeral port) once it answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sessionStateView } from '../lib/data/session-state';
import { parseEvent } from '../lib/validation/adk-event';
import { parseInitialState } from '../lib/http/schemas/session';
import { sessionJson } from '../lib/http/serialize';
import { openServices } from '../lib/services';
import type { JsonValue } from '../lib/session-service';
import { runDoor } from './door-process';

const SESSION = /^\/api\/apps\/([^/]+)\/users\/([^/]+)\/sessions\/([^/]+)(\/events|\/state)?$/;
const SESSIONS = /^\/api\/apps\/([^/]+)\/users\/([^/]+)\/sessions$/;

async function bodyOf(request: IncomingMessage): Promise<JsonValue | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as JsonValue);
}

function send(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  response.end(body);
}

runDoor(async () => {
  const url = process.argv[2];
  if (!url) throw new Error('usage: reference-door.ts <database URL>');
  const { store, accounts } = await openServices(url, { migrate: true });
  const tokens = process.env.REFERENCE_AUTH === 'token';

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (tokens) {
      const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!token || !(await accounts.tokenAccount(token))) return send(response, 401, { detail: 'Not authenticated' });
    }
    const target = new URL(request.url ?? '/', 'http://reference');
    const method = request.method ?? 'GET';
    const one = SESSION.exec(target.pathname);
    if (one) {
      const ref = {
        appName: decodeURIComponent(one[1] ?? ''),
        userId: decodeURIComponent(one[2] ?? ''),
        sessionId: decodeURIComponent(one[3] ?? ''),
      };
      if (method === 'POST' && one[4] === undefined) {
        const state = parseInitialState(await bodyOf(request));
        return send(response, 200, sessionJson(await store.createSession({ ...ref, state })));
      }
      if (method === 'POST' && one[4] === '/events') {
        const tag = /^"?(\d+)"?$/.exec(request.headers['if-match'] ?? '');
        const event = parseEvent((await bodyOf(request)) ?? null);
        const result = await store.append(ref, event, { expectedRevision: tag ? Number(tag[1]) : undefined });
        return send(response, 200, result.event, { ETag: `"${result.revision}"` });
      }
      if (method === 'GET' && one[4] === '/state') return send(response, 200, await sessionStateView(store, ref));
      if (method === 'GET' && one[4] === undefined) {
        const recent = target.searchParams.get('numRecentEvents');
        const session = await store.getSession(ref, { numRecentEvents: recent === null ? undefined : Number(recent) });
        return session ? send(response, 200, sessionJson(session)) : send(response, 404, { detail: 'Session not found' });
      }
    }
    const many = SESSIONS.exec(target.pathname);
    if (many && method === 'GET') {
      const owner = { appName: decodeURIComponent(many[1] ?? ''), userId: decodeURIComponent(many[2] ?? '') };
      return send(response, 200, (await store.listSessions(owner)).sessions.map(sessionJson));
    }
    send(response, 404, { detail: 'Not Found' });
  }

  return (request, response) => {
    handle(request, response).catch((error: unknown) => send(response, 500, { detail: String(error) }));
  };
});
