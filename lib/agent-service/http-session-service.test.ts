// HttpSessionService against a real HTTP server over the real /api routes, on
// SQLite and PostgreSQL: the adk-js session-service contract the drop-in
// passes, then what only a client over a network has to get right.
import { createEvent, createEventActions } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAdkJsSessionContract } from '../testing/adk-js-session-contract';
import { startApiServer, type ApiServer } from '../testing/api-server';
import { testProviders } from '../testing/databases';
import { uniqueName } from '../testing/factories';
import { useTestDatabase } from '../testing/use-test-database';
import { isSessionServiceError } from '../session-service';
import { HttpSessionService } from './http-session-service';

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe.each(await testProviders())('HttpSessionService over /api on %s', (provider) => {
  useTestDatabase(provider, { serveRoutes: true });
  let server: ApiServer | undefined;
  let service: HttpSessionService | undefined;
  beforeAll(async () => {
    server = await startApiServer();
    service = new HttpSessionService({ baseURL: server.url });
  });
  afterAll(() => server?.close());
  const svc = () => {
    if (!service) throw new Error('The service exists only while its describe block runs.');
    return service;
  };
  const url = () => server?.url ?? '';

  describeAdkJsSessionContract('HttpSessionService', { service: svc });

  it('reports an append to a deleted session as not found instead of losing the event', async () => {
    const appName = uniqueName('app');
    const session = await svc().createSession({ appName, userId: 'u' });
    await svc().deleteSession({ appName, userId: 'u', sessionId: session.id });
    const error = await rejection(svc().appendEvent({ session, event: createEvent({ author: 'agent' }) }));
    expect(isSessionServiceError(error) && error.code).toBe('NOT_FOUND');
    expect(error.message).toBe(`Session ${session.id} not found for appendEvent`);
    expect(session.events).toEqual([]);
  });

  it('reports a stale append with the server’s detail and code', async () => {
    const appName = uniqueName('app');
    const session = await svc().createSession({ appName, userId: 'u', sessionId: 's' });
    const twin = await svc().getSession({ appName, userId: 'u', sessionId: 's' });
    await svc().appendEvent({ session, event: createEvent({ author: 'agent' }) });
    const error = await rejection(svc().appendEvent({ session: twin!, event: createEvent({ author: 'agent' }) }));
    expect(isSessionServiceError(error) && error.code).toBe('STALE_SESSION');
    expect(error.message).toBe(
      'The session has been modified in storage since it was loaded. Please reload the session before appending more events.',
    );
  });

  it('retries an append whose answer was lost, and the event is stored once', async () => {
    let lost = 0;
    const flaky = new HttpSessionService({
      baseURL: url(),
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === 'POST' && String(input).endsWith('/events') && lost++ === 0) {
          await response.body?.cancel();
          throw new TypeError('fetch failed: the connection was reset');
        }
        return response;
      },
    });
    const appName = uniqueName('app');
    const session = await flaky.createSession({ appName, userId: 'u' });
    const event = createEvent({ author: 'agent', actions: createEventActions({ stateDelta: { 'user:visits': 1 } }) });
    await flaky.appendEvent({ session, event });
    expect(lost).toBe(2);
    const loaded = await flaky.getSession({ appName, userId: 'u', sessionId: session.id });
    expect(loaded?.events.map((e) => e.id)).toEqual([event.id]);
    expect(session.events.map((e) => e.id)).toEqual([event.id]);
    // The object is current: the next append is not stale.
    await flaky.appendEvent({ session, event: createEvent({ author: 'agent' }) });
  });

  it('retries a 503 and gives up with UNAVAILABLE after its retries', async () => {
    let calls = 0;
    const down = new HttpSessionService({
      baseURL: url(),
      retries: 2,
      fetch: () => {
        calls++;
        return Promise.resolve(Response.json({ detail: 'Database unavailable: test' }, { status: 503, headers: { 'Retry-After': '0' } }));
      },
    });
    const error = await rejection(down.getSession({ appName: 'a', userId: 'u', sessionId: 's' }));
    expect(calls).toBe(3);
    expect(isSessionServiceError(error) && error.code).toBe('UNAVAILABLE');
    expect(error.message).toBe('Database unavailable: test');
  });

  it('sends the token as a bearer', async () => {
    const seen: (string | null)[] = [];
    const withToken = new HttpSessionService({
      baseURL: url(),
      token: 'sht_test',
      fetch: (input, init) => {
        seen.push(new Headers(init?.headers).get('authorization'));
        return fetch(input, init);
      },
    });
    await withToken.listSessions({ appName: uniqueName('app'), userId: 'u' });
    expect(seen).toEqual(['Bearer sht_test']);
  });

  it('round-trips every key, __proto__ and constructor included, in state and events', async () => {
    const appName = uniqueName('app');
    const state = JSON.parse('{"__proto__": {"a": 1}, "constructor": 2, "user:__proto__": 3, "app:toString": 4}') as Record<
      string,
      unknown
    >;
    const session = await svc().createSession({ appName, userId: 'u', state });
    const delta = JSON.parse('{"__proto__": {"b": 2}, "hasOwnProperty": 5}') as Record<string, unknown>;
    await svc().appendEvent({ session, event: createEvent({ author: 'agent', actions: createEventActions({ stateDelta: delta }) }) });
    const loaded = await svc().getSession({ appName, userId: 'u', sessionId: session.id });
    expect(Object.keys(loaded?.state ?? {}).sort()).toEqual([
      '__proto__',
      'app:toString',
      'constructor',
      'hasOwnProperty',
      'user:__proto__',
    ]);
    expect(loaded?.state['__proto__']).toEqual({ b: 2 });
    expect(Object.getPrototypeOf(loaded?.state)).toBe(Object.prototype);
    expect(Object.keys(loaded?.events[0]?.actions.stateDelta ?? {}).sort()).toEqual(['__proto__', 'hasOwnProperty']);
    const listed = await svc().listSessions({ appName, userId: 'u' });
    expect(Object.hasOwn(listed.sessions[0]?.state ?? {}, '__proto__')).toBe(true);
  });
});
