// Sending a message to a session's agent through its ADK API server
// (POST .../agent/send), on SQLite and PostgreSQL, against agent servers of
// the test's own that misbehave in every way the issue lists: each fault is a
// clear refusal or a `failed` line, the send log says how it ended, and
// nothing else in Statehouse's database changes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentSendLog } from '@/lib/agent-server/send-log';
import { requiredRole } from '@/lib/auth/policy';
import { setServicesForTests } from '@/lib/services';
import { testProviders } from '@/lib/testing/databases';
import { uniqueName } from '@/lib/testing/factories';
import { call, databaseDump, detailOf } from '@/lib/testing/http';
import { downServerUrl, startMisbehavingServer, type MisbehavingServer, type Misbehaviour } from '@/lib/testing/misbehaving-agent-server';
import { useTestDatabase } from '@/lib/testing/use-test-database';
import { acceptedByAdkJs, acceptedByAdkPython } from '@/lib/testing/upstream-run-request';
import * as send from './apps/[app]/users/[user]/sessions/[id]/agent/send/route';
import * as sends from './apps/[app]/users/[user]/sessions/[id]/agent/sends/route';

const providers = await testProviders();

interface Line {
  type: string;
  code?: string;
  message?: string;
  events?: number;
  event?: { id: string };
}
const linesOf = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line);

describe.each(providers)('sending to the agent on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });
  const savedServers = process.env.STATEHOUSE_AGENT_SERVERS;
  let log: AgentSendLog;
  let servers: MisbehavingServer[] = [];
  // Letters, digits and _ only: adk-python refuses any other app name.
  const app = uniqueName('agent_app').replace(/\W/g, '_');
  const params = { app, user: 'ada', id: 's1' };

  beforeAll(async () => {
    log = new AgentSendLog(database.db.client);
    setServicesForTests({ store: database.service, sendLog: log });
    await database.service.createSession({ appName: app, userId: 'ada', sessionId: 's1', state: { topic: 'jazz' } });
  });
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });
  afterAll(() => {
    if (savedServers === undefined) delete process.env.STATEHOUSE_AGENT_SERVERS;
    else process.env.STATEHOUSE_AGENT_SERVERS = savedServers;
  });

  function configure(url: string, extra: Record<string, unknown> = {}) {
    process.env.STATEHOUSE_AGENT_SERVERS = JSON.stringify([{ app, url, timeoutSeconds: 0.5, ...extra }]);
  }
  async function server(how: Misbehaviour) {
    const started = await startMisbehavingServer(how);
    servers.push(started);
    configure(started.url);
    return started;
  }
  const sendText = (text = 'I like jazz.') => call(send.POST, 'POST', { params, body: { text } });
  const newestSend = async () => (await log.list('native', { appName: app, userId: 'ada', sessionId: 's1' }))[0];
  /** Statehouse's tables but the send log: what a send must never touch. */
  const dumpWithoutLog = async () => {
    const { agent_sends: _log, ...rest } = await databaseDump(database);
    return rest;
  };

  it('streams the events as lines, logs who sent what, and sends a body both ADK servers accept', async () => {
    const agent = await server('well');
    configure(agent.url, { header: { name: 'Authorization', value: 'Bearer s3cret' } });
    const before = await dumpWithoutLog();
    const result = await sendText('  I like jazz.  ');
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = linesOf(result.text);
    expect(lines.map((line) => line.type)).toEqual(['event', 'event', 'done']);
    expect(lines.at(-1)?.events).toBe(2);

    const [request] = agent.requests;
    expect(request?.body).toEqual({
      appName: app,
      userId: 'ada',
      sessionId: 's1',
      newMessage: { role: 'user', parts: [{ text: 'I like jazz.' }] },
      streaming: false,
    });
    expect(acceptedByAdkPython(request?.body)).toEqual({ ok: true });
    expect(acceptedByAdkJs(request?.body)).toEqual({ ok: true });
    expect(request?.headers.authorization).toBe('Bearer s3cret');

    const logged = await newestSend();
    expect(logged).toMatchObject({ actor: expect.any(String) as unknown, message: 'I like jazz.', outcome: 'done' });
    expect(logged?.detail.eventIds).toEqual(lines.slice(0, 2).map((line) => line.event?.id));
    expect(logged?.server).not.toContain('s3cret');
    const listed = await call(sends.GET, 'GET', { params });
    expect(listed.json).toMatchObject({
      items: [{ message: 'I like jazz.', outcome: 'done', detail: { eventIds: logged?.detail.eventIds } }],
    });
    expect(listed.text).not.toContain('s3cret');
    expect(await dumpWithoutLog()).toEqual(before);
  });

  it('passes session state changes on as the request’s stateDelta, and refuses app: and user: keys', async () => {
    const agent = await server('well');
    const result = await call(send.POST, 'POST', { params, body: { text: 'hi', stateDelta: { topic: 'hiking', n: 2 } } });
    expect(result.status).toBe(200);
    const body = agent.requests[0]?.body;
    expect(body).toMatchObject({ stateDelta: { topic: 'hiking', n: 2 } });
    expect(acceptedByAdkPython(body)).toEqual({ ok: true });
    expect(acceptedByAdkJs(body)).toEqual({ ok: true });
    for (const key of ['user:plan', 'app:tone']) {
      const refused = await call(send.POST, 'POST', { params, body: { text: 'hi', stateDelta: { [key]: 1 } } });
      expect({ key, status: refused.status, detail: detailOf(refused) }).toEqual({
        key,
        status: 400,
        detail: expect.stringContaining('only session keys') as unknown,
      });
    }
    expect(agent.requests).toHaveLength(1);
  });

  it('needs support, and refuses an empty message and an app with no server before calling anything', async () => {
    expect(requiredRole('POST', `/api/apps/${app}/users/ada/sessions/s1/agent/send`)).toBe('support');
    const agent = await server('well');
    const empty = await sendText('   ');
    expect(empty.status).toBe(400);
    process.env.STATEHOUSE_AGENT_SERVERS = JSON.stringify([{ app: 'another-app', url: agent.url }]);
    const none = await sendText();
    expect(none.status).toBe(409);
    expect(detailOf(none)).toContain(`No agent server is configured for app ${app}`);
    process.env.STATEHOUSE_AGENT_SERVERS = '[{"app": "x"}]';
    expect(detailOf(await sendText())).toContain('STATEHOUSE_AGENT_SERVERS');
    configure(agent.url);
    const unknown = await call(send.POST, 'POST', { params: { ...params, id: 'nope' }, body: { text: 'hi' } });
    expect(unknown.status).toBe(404);
    expect(agent.requests).toHaveLength(0);
  });

  const refusals: [string, Misbehaviour | 'down', number, string, string][] = [
    ['a server that is down', 'down', 502, 'AGENT_UNREACHABLE', 'could not be reached (ECONNREFUSED)'],
    ['a server that never answers', 'hang', 504, 'AGENT_TIMEOUT', 'did not start answering within 0.5 s'],
    ['an error answer', 'error-500', 502, 'AGENT_FAILED', 'answered 500: The model quota is exhausted.'],
    ['an answer that is not a stream', 'html', 502, 'AGENT_FAILED', 'text/html, not an event stream'],
    ['a session the agent’s store does not hold', 'session-missing', 409, 'AGENT_SESSION_MISSING', 'has no session s1 in its store'],
  ];
  it.each(refusals)('refuses %s with a clear detail, logs it as failed, writes nothing else', async (_name, how, status, code, words) => {
    if (how === 'down') configure(await downServerUrl());
    else await server(how);
    const before = await dumpWithoutLog();
    const result = await sendText();
    expect({ status: result.status, detail: detailOf(result) }).toEqual({ status, detail: expect.stringContaining(words) as unknown });
    expect(await newestSend()).toMatchObject({ outcome: 'failed', detail: { error: { code } } });
    expect(await dumpWithoutLog()).toEqual(before);
  });

  const brokenStreams: [string, Misbehaviour, string, string, number][] = [
    ['a stream that stalls', 'stall', 'AGENT_TIMEOUT', 'did not send its next event within 0.5 s', 1],
    ['a message that is not JSON', 'not-json', 'AGENT_FAILED', 'a message that is not JSON', 0],
    ['a message that is not an ADK event', 'not-an-event', 'AGENT_FAILED', 'not an ADK event (id:', 0],
    ['a failed run', 'agent-error', 'AGENT_FAILED', 'The agent failed: Tool remember_preference raised ValueError', 1],
    ['a connection cut mid-event', 'broken', 'AGENT_FAILED', 'broke off its answer', 1],
  ];
  it.each(brokenStreams)('ends %s with a failed line after the events that came', async (_name, how, code, words, events) => {
    await server(how);
    const before = await dumpWithoutLog();
    const lines = linesOf((await sendText()).text);
    expect(lines.filter((line) => line.type === 'event')).toHaveLength(events);
    expect(lines.at(-1)).toEqual({ type: 'failed', code, message: expect.stringContaining(words) as unknown });
    const logged = await newestSend();
    expect(logged).toMatchObject({ outcome: 'failed', detail: { error: { code } } });
    expect(logged?.detail.eventIds).toHaveLength(events);
    expect(await dumpWithoutLog()).toEqual(before);
  });

  it('a cancelled send stops reading, hangs up on the agent server and is logged as cancelled', async () => {
    const agent = await server('trickle');
    const controller = new AbortController();
    const request = new Request('http://localhost/api/x', {
      method: 'POST',
      body: JSON.stringify({ text: 'tell me a long story' }),
      headers: { 'content-type': 'application/json' },
      signal: controller.signal,
    });
    const response = await send.POST(request, { params: Promise.resolve(params) });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await reader.cancel();
    await expect.poll(() => agent.hangUps, { timeout: 5000 }).toBe(1);
    await expect.poll(async () => (await newestSend())?.outcome, { timeout: 5000 }).toBe('cancelled');
  });
});
