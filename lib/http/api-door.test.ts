// The /api fast path on a plain HTTP server standing for Next (as
// `next start` runs it, NODE_ENV=production): request bodies read whole or
// streamed, JSON answers written as the handler made them, and gzip only
// above COMPRESS_MIN_BYTES.
import { createServer, IncomingMessage, request as http, type Server } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uniqueName } from '../testing/factories';
import { useTestDatabase } from '../testing/use-test-database';
import { COMPRESS_MIN_BYTES, fastApiRoute, headersOf } from './api-door';
import { installDoor } from './door';
import { STREAMED_EVENTS_OVER } from './respond';
import { exportResponse } from './session-transfer';
import { getStore } from '../services';
import { startMisbehavingServer } from '../testing/misbehaving-agent-server';
import { ITEMS_PER_CHUNK } from '../session-service/json-chunks';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function call(
  port: number,
  method: string,
  path: string,
  options: { body?: string; chunked?: boolean; gzip?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'accept-encoding': options.gzip ? 'gzip' : 'identity' };
    if (options.body !== undefined && !options.chunked) headers['content-length'] = String(Buffer.byteLength(options.body));
    const sent = http({ host: '127.0.0.1', port, method, path, headers });
    sent.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    sent.on('error', reject);
    if (options.body !== undefined && options.chunked) {
      // Two writes with no Content-Length: Node sends them chunked.
      const half = Math.floor(options.body.length / 2);
      sent.write(options.body.slice(0, half));
      sent.end(options.body.slice(half));
    } else sent.end(options.body);
  });
}

describe('the /api fast path', () => {
  useTestDatabase('sqlite', { serveRoutes: true });
  let server: Server;
  let port: number;
  const reachedNext: string[] = [];
  const saved = { ...process.env };

  beforeAll(async () => {
    Object.assign(process.env, { NODE_ENV: 'production', STATEHOUSE_AUTH: 'local', STATEHOUSE_HOST: '127.0.0.1' });
    installDoor();
    server = createServer((request, response) => {
      reachedNext.push(`${request.method} ${request.url}`);
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    const environment: Record<string, string | undefined> = process.env;
    for (const name of ['NODE_ENV', 'STATEHOUSE_AUTH', 'STATEHOUSE_HOST']) {
      if (saved[name] === undefined) delete environment[name];
      else environment[name] = saved[name];
    }
  });

  it('takes bodies with a Content-Length and chunked ones alike', async () => {
    const base = `/api/apps/${uniqueName('door')}/users/u/sessions`;
    const created = await call(port, 'POST', `${base}/s`, { body: JSON.stringify({ topic: 'whole' }) });
    expect(created.status).toBe(200);
    expect(JSON.parse(created.body.toString())).toMatchObject({ id: 's', state: { topic: 'whole' } });
    const event = JSON.stringify({ author: 'user', actions: { stateDelta: { topic: 'chunked' } } });
    const appended = await call(port, 'POST', `${base}/s/events`, { body: event, chunked: true });
    expect(appended.status).toBe(200);
    expect(appended.headers.etag).toBe('"1"');
    const read = await call(port, 'GET', `${base}/s`);
    expect(read.headers['content-length']).toBe(String(read.body.length));
    expect(JSON.parse(read.body.toString())).toMatchObject({ state: { topic: 'chunked' } });
    const invalid = await call(port, 'POST', `${base}/s/events`, { body: '{"author": ' });
    expect(invalid.status).toBe(400);
    expect(reachedNext).toEqual([]);
  });

  it('writes a long session, and its export, as it serializes them: chunked, never one whole text', async () => {
    const base = `/api/apps/${uniqueName('door-long')}/users/u/sessions`;
    const count = STREAMED_EVENTS_OVER + 1;
    const events = Array.from({ length: count }, (_, i) => ({
      author: i % 2 ? 'model' : 'user',
      timestamp: 1_790_000_000 + i,
      content: { role: i % 2 ? 'model' : 'user', parts: [{ text: `message ${i}` }] },
    }));
    const created = await call(port, 'POST', base, { body: JSON.stringify({ sessionId: 'long', events }) });
    expect(created.status).toBe(200);
    const read = await call(port, 'GET', `${base}/long`);
    expect(read.status).toBe(200);
    expect(read.headers['content-length']).toBeUndefined();
    expect(read.headers['transfer-encoding']).toBe('chunked');
    expect(read.headers.etag).toEqual(expect.any(String));
    const text = read.body.toString();
    const session = JSON.parse(text) as { events: { content: { parts: { text: string }[] } }[] };
    expect(text).toBe(JSON.stringify(session));
    expect(session.events).toHaveLength(count);
    expect(session.events.at(-1)?.content.parts[0]?.text).toBe(`message ${count - 1}`);
    const exported = await call(port, 'GET', `${base}/long/export`);
    expect(exported.status).toBe(200);
    expect(exported.headers['content-disposition']).toContain('attachment');
    const file = exported.body.toString();
    expect(file).toBe(JSON.stringify(JSON.parse(file), null, 2));
    expect((JSON.parse(file) as { events: unknown[] }).events).toHaveLength(count);
    // The app's JSON Lines export writes the session's line a chunk of events at a time too.
    const app = base.split('/')[3] ?? '';
    const chunks: string[] = [];
    const reader = (await exportResponse(await getStore(), app)).body?.getReader();
    const decoder = new TextDecoder();
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) chunks.push(decoder.decode(read.value));
    const line = chunks.join('');
    expect(line).toBe(`${JSON.stringify(JSON.parse(line))}\n`);
    expect(chunks.length).toBeGreaterThan(count / ITEMS_PER_CHUNK);
  });

  it("hands the handler Node's own request: no web Request is made for a read or a write", async () => {
    const base = `/api/apps/${uniqueName('door-light')}/users/u/sessions`;
    const WebRequest = globalThis.Request;
    let made = 0;
    vi.stubGlobal(
      'Request',
      class extends WebRequest {
        constructor(...args: ConstructorParameters<typeof Request>) {
          super(...args);
          made += 1;
        }
      },
    );
    try {
      expect((await call(port, 'POST', `${base}/s`, { body: '{"topic": "light"}' })).status).toBe(200);
      const event = JSON.stringify({ author: 'user', actions: { stateDelta: { topic: 'lighter' } } });
      expect((await call(port, 'POST', `${base}/s/events`, { body: event })).status).toBe(200);
      expect((await call(port, 'GET', `${base}/s/state`)).status).toBe(200);
      const read = await call(port, 'GET', `${base}/s?numRecentEvents=1`);
      expect(JSON.parse(read.body.toString())).toMatchObject({ state: { topic: 'lighter' } });
    } finally {
      vi.unstubAllGlobals();
    }
    expect(made).toBe(0);
    expect(reachedNext).toEqual([]);
  });

  it('hangs up on the agent server when the client goes away before the agent answered', async () => {
    const app = uniqueName('door_agent').replace(/\W/g, '_');
    await (await getStore()).createSession({ appName: app, userId: 'ada', sessionId: 's1' });
    const agent = await startMisbehavingServer('hang');
    const saved = process.env.STATEHOUSE_AGENT_SERVERS;
    // Far longer than the poll below: only the client's leaving can end the agent's request in time.
    process.env.STATEHOUSE_AGENT_SERVERS = JSON.stringify([{ app, url: agent.url, timeoutSeconds: 60 }]);
    try {
      const body = JSON.stringify({ text: 'tell me a long story' });
      const sent = http({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/apps/${app}/users/ada/sessions/s1/agent/send`,
        headers: { 'content-length': String(Buffer.byteLength(body)) },
      });
      sent.on('error', () => undefined);
      sent.end(body);
      await expect.poll(() => agent.requests.length).toBe(1);
      sent.destroy();
      await expect.poll(() => agent.hangUps, { timeout: 5000 }).toBe(1);
    } finally {
      if (saved === undefined) delete process.env.STATEHOUSE_AGENT_SERVERS;
      else process.env.STATEHOUSE_AGENT_SERVERS = saved;
      await agent.close();
    }
  });

  it('leaves to Next a request whose Host makes no URL, instead of failing it unanswered', () => {
    const request = new IncomingMessage(new Socket());
    request.method = 'GET';
    request.url = '/api/apps';
    request.headers = { host: 'a b', authorization: 'Bearer sht_anything' };
    const saved = process.env.STATEHOUSE_AUTH;
    process.env.STATEHOUSE_AUTH = 'protected';
    try {
      expect(fastApiRoute(request, headersOf(request))).toBeNull();
      request.headers.host = 'console.example';
      expect(fastApiRoute(request, headersOf(request))?.url.href).toBe('http://console.example/api/apps');
    } finally {
      if (saved === undefined) delete process.env.STATEHOUSE_AUTH;
      else process.env.STATEHOUSE_AUTH = saved;
    }
  });

  it('compresses only answers of COMPRESS_MIN_BYTES or more, and only when asked', async () => {
    const base = `/api/apps/${uniqueName('door-gzip')}/users/u/sessions`;
    // About 20 KiB: a session read of a few dozen events, which a nearby agent gets faster uncompressed.
    await call(port, 'POST', `${base}/medium`, { body: JSON.stringify({ text: 'x'.repeat(20_000) }) });
    const medium = await call(port, 'GET', `${base}/medium`, { gzip: true });
    expect(medium.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(medium.body.toString()).state.text).toHaveLength(20_000);

    await call(port, 'POST', `${base}/big`, { body: JSON.stringify({ text: 'x'.repeat(COMPRESS_MIN_BYTES) }) });
    const big = await call(port, 'GET', `${base}/big`, { gzip: true });
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(big.body).toString()).state.text).toHaveLength(COMPRESS_MIN_BYTES);
    const plain = await call(port, 'GET', `${base}/big`);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });
});
