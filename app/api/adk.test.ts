// ADK API server compatible routes (spec section 6), called as Next calls
// them, against SQLite and PostgreSQL.
import { afterEach, describe, expect, it } from 'vitest';
import { call, databaseDump, detailOf } from '@/lib/testing/http';
import { testProviders } from '@/lib/testing/databases';
import { uniqueName } from '@/lib/testing/factories';
import { failEventInsert } from '@/lib/testing/faults';
import { useTestDatabase } from '@/lib/testing/use-test-database';
import * as listApps from './list-apps/route';
import * as sessions from './apps/[app]/users/[user]/sessions/route';
import * as session from './apps/[app]/users/[user]/sessions/[id]/route';

const providers = await testProviders();

const SESSION_FIELDS = ['id', 'appName', 'userId', 'state', 'events', 'lastUpdateTime'];

interface SessionJson {
  id: string;
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  events: Record<string, unknown>[];
  lastUpdateTime: number;
}

describe.each(providers)('ADK session routes on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });
  afterEach(() => {
    delete process.env.STATEHOUSE_MAX_BODY_BYTES;
  });

  /** Runs a request that must fail and checks that no table changed. */
  async function failsWithoutChanges(request: () => Promise<{ status: number; json: unknown }>) {
    const before = await databaseDump(database);
    const result = await request();
    expect(await databaseDump(database)).toEqual(before);
    return result;
  }

  describe('GET /api/list-apps', () => {
    it('lists app names sorted', async () => {
      const [b, a] = [`zz-${uniqueName('app')}`, `aa-${uniqueName('app')}`];
      await database.service.createSession({ appName: b, userId: 'u' });
      await database.service.createSession({ appName: a, userId: 'u' });
      const result = await call(listApps.GET, 'GET');
      expect(result.status).toBe(200);
      const names = result.json as string[];
      expect(names).toEqual(expect.arrayContaining([a, b]));
      expect(names).toEqual([...names].sort());
    });
  });

  describe('POST /api/apps/{app}/users/{user}/sessions', () => {
    it('creates a session with state and events (camelCase) in ADK JSON shape', async () => {
      const app = uniqueName('app');
      const result = await call(sessions.POST, 'POST', {
        params: { app, user: 'u1' },
        body: {
          sessionId: 's1',
          state: { 'app:tone': 'warm', 'user:name': 'Ada', topic: 'math', 'temp:x': 1 },
          events: [
            { author: 'user', invocationId: 'inv-1', timestamp: 1_750_000_000.25, actions: { stateDelta: { step: 1 } } },
            {
              id: 'e2',
              author: 'agent',
              invocationId: 'inv-1',
              timestamp: 1_750_000_001.5,
              content: { role: 'model', parts: [{ text: 'hi' }] },
              actions: { stateDelta: { step: 2, 'temp:scratch': true } },
              futureField: { kept: true },
            },
          ],
        },
      });
      expect(result.status).toBe(200);
      const body = result.json as SessionJson;
      expect(Object.keys(body)).toEqual(SESSION_FIELDS);
      expect(body).toMatchObject({ id: 's1', appName: app, userId: 'u1' });
      expect(body.state).toEqual({ topic: 'math', step: 2, 'temp:scratch': true, 'app:tone': 'warm', 'user:name': 'Ada' });
      expect(body.events.map((e) => e.invocationId)).toEqual(['inv-1', 'inv-1']);
      expect(body.events[1]).toMatchObject({ id: 'e2', futureField: { kept: true }, actions: { stateDelta: { step: 2 } } });
      // Float seconds, the last event's timestamp.
      expect(result.text).toContain('"lastUpdateTime":1750000001.5');

      const loaded = await call(session.GET, 'GET', { params: { app, user: 'u1', id: 's1' } });
      expect((loaded.json as SessionJson).state).toEqual({ topic: 'math', step: 2, 'app:tone': 'warm', 'user:name': 'Ada' });
      expect((loaded.json as SessionJson).events[1]?.actions).toEqual({
        stateDelta: { step: 2 },
        artifactDelta: {},
        requestedAuthConfigs: {},
        requestedToolConfirmations: {},
      });
    });

    it('accepts snake_case for ADK fields and never renames keys inside data', async () => {
      const app = uniqueName('app');
      const result = await call(sessions.POST, 'POST', {
        params: { app, user: 'u' },
        body: {
          session_id: 'snake',
          state: { user_pref: { nested_key: 1 } },
          events: [
            {
              author: 'agent',
              invocation_id: 'inv_1',
              turn_complete: true,
              custom_metadata: { my_key: 'kept' },
              content: { parts: [{ function_call: { name: 'lookup', args: { arg_name: 1 } } }] },
              actions: { state_delta: { 'user:snake_key': { inner_key: 2 } }, skip_summarization: true },
              some_unknown_field: 3,
            },
          ],
        },
      });
      expect(result.status).toBe(200);
      const body = result.json as SessionJson;
      expect(body.id).toBe('snake');
      expect(body.state).toEqual({ user_pref: { nested_key: 1 }, 'user:snake_key': { inner_key: 2 } });
      expect(body.events[0]).toMatchObject({
        invocationId: 'inv_1',
        turnComplete: true,
        customMetadata: { my_key: 'kept' },
        content: { parts: [{ functionCall: { name: 'lookup', args: { arg_name: 1 } } }] },
        actions: { stateDelta: { 'user:snake_key': { inner_key: 2 } }, skipSummarization: true },
        some_unknown_field: 3,
      });
      expect(body.events[0]).not.toHaveProperty('invocation_id');
    });

    it('creates with a generated id when there is no body', async () => {
      const app = uniqueName('app');
      const result = await call(sessions.POST, 'POST', { params: { app, user: 'u' } });
      expect(result.status).toBe(200);
      const body = result.json as SessionJson;
      expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.state).toEqual({});
      expect(body.events).toEqual([]);
      expect(Math.abs(body.lastUpdateTime - Date.now() / 1000)).toBeLessThan(60);
    });

    it('answers 409 for an existing id and changes nothing', async () => {
      const app = uniqueName('app');
      await call(sessions.POST, 'POST', { params: { app, user: 'u' }, body: { sessionId: 'dup' } });
      const result = await failsWithoutChanges(() =>
        call(sessions.POST, 'POST', { params: { app, user: 'u' }, body: { sessionId: 'dup', state: { 'app:x': 1 } } }),
      );
      expect(result.status).toBe(409);
      expect(result.json).toEqual({ detail: 'Session already exists: dup' });
    });

    it('validates the whole body, events included, before writing anything', async () => {
      const app = uniqueName('app');
      const cases: [unknown, string][] = [
        [{ state: [1] }, 'state: expected a JSON object, got an array'],
        [{ sessionId: 5 }, 'sessionId: must be a string'],
        [{ sessionId: '' }, 'sessionId: must not be empty'],
        [{ sessionId: 'x'.repeat(129) }, 'sessionId: must be at most 128 characters'],
        [{ events: {} }, 'events: expected an array, got an object'],
        [{ events: [{ author: 'a' }, { author: '' }] }, 'events.1.author: must not be empty'],
        [{ events: [{ author: 'a', timestamp: 'now' }] }, 'events.0.timestamp: expected a number, got a string'],
        [{ events: [{ author: 'a', actions: { stateDelta: 'x' } }] }, 'events.0.actions.stateDelta: expected a JSON object'],
        [{ session_id: 'a', sessionId: 'b' }, 'sessionId: given twice, as session_id and sessionId'],
        [[1, 2], 'body: expected a JSON object, got an array'],
      ];
      for (const [body, detail] of cases) {
        const result = await failsWithoutChanges(() => call(sessions.POST, 'POST', { params: { app, user: 'u' }, body }));
        expect(result.status, JSON.stringify(body)).toBe(400);
        expect((result.json as { detail: string }).detail).toContain(detail);
      }
    });

    it('writes nothing when the database fails midway through the events, and the id stays free', async () => {
      const app = uniqueName('app');
      const body = {
        sessionId: 's',
        state: { 'app:a': 1, 'user:b': 2, c: 3 },
        events: [
          { id: 'e1', author: 'agent', actions: { stateDelta: { 'app:a': 10, 'user:b': 20, c: 30 } } },
          { id: `poison-${app}`, author: 'agent', actions: { stateDelta: { 'user:b': 21 } } },
          { id: 'e3', author: 'agent', actions: { stateDelta: { c: 31 } } },
        ],
      };
      const restore = await failEventInsert(database, `poison-${app}`);
      try {
        const result = await failsWithoutChanges(() => call(sessions.POST, 'POST', { params: { app, user: 'u' }, body }));
        expect(result.status).toBe(500);
        expect(result.json).toEqual({ detail: 'Internal server error (the server log has the details).' });
      } finally {
        await restore();
      }
      const missing = await call(session.GET, 'GET', { params: { app, user: 'u', id: 's' } });
      expect(missing.status).toBe(404);
      const retried = await call(sessions.POST, 'POST', { params: { app, user: 'u' }, body });
      expect(retried.status).toBe(200);
      expect((retried.json as SessionJson).state).toEqual({ c: 31, 'app:a': 10, 'user:b': 21 });
    });

    it('rejects malformed JSON with its position', async () => {
      const app = uniqueName('app');
      const result = await failsWithoutChanges(() =>
        call(sessions.POST, 'POST', { params: { app, user: 'u' }, body: '{\n  "state": {"a": }\n}' }),
      );
      expect(result.status).toBe(400);
      expect(result.json).toEqual({
        detail: 'Malformed JSON at line 2, column 18 (character 19): unexpected character "}", expected a JSON value',
      });
    });

    it('rejects bad ids in the path', async () => {
      const cases: [{ app: string; user: string }, string][] = [
        [{ app: '', user: 'u' }, 'appName: must not be empty'],
        [{ app: 'a', user: 'x'.repeat(129) }, 'userId: must be at most 128 characters'],
        [{ app: 'a\u0000b', user: 'u' }, 'appName: must not contain control characters'],
      ];
      for (const [params, detail] of cases) {
        const result = await failsWithoutChanges(() => call(sessions.POST, 'POST', { params }));
        expect(result.status).toBe(400);
        expect(result.json).toEqual({ detail });
      }
      const longest = await call(sessions.POST, 'POST', { params: { app: uniqueName('app'), user: 'x'.repeat(128) } });
      expect(longest.status).toBe(200);
    });

    it('refuses a body over the limit with 413 before parsing', async () => {
      const app = uniqueName('app');
      const big = JSON.stringify({ state: { blob: 'x'.repeat(2 * 1024 * 1024) } });
      const result = await failsWithoutChanges(() => call(sessions.POST, 'POST', { params: { app, user: 'u' }, body: big }));
      expect(result.status).toBe(413);
      expect((result.json as { detail: string }).detail).toMatch(/too large.*2097152 bytes/);

      process.env.STATEHOUSE_MAX_BODY_BYTES = '64';
      // Not even JSON: the size is refused first.
      const small = await failsWithoutChanges(() =>
        call(sessions.POST, 'POST', { params: { app, user: 'u' }, body: `{${'x'.repeat(100)}` }),
      );
      expect(small.status).toBe(413);
      expect((small.json as { detail: string }).detail).toContain('64 bytes');
    });
  });

  describe('POST /api/apps/{app}/users/{user}/sessions/{id}', () => {
    it('takes the whole body as the initial state', async () => {
      const app = uniqueName('app');
      const body = '{"app:x": 1, "k": "v", "__proto__": {"kept": true}, "user:y": null}';
      const result = await call(session.POST, 'POST', { params: { app, user: 'u', id: 'given' }, body });
      expect(result.status).toBe(200);
      expect(Object.keys(result.json as object)).toEqual(SESSION_FIELDS);
      expect(result.text).toContain('"state":{"__proto__":{"kept":true},"k":"v","app:x":1,"user:y":null}');

      const duplicate = await failsWithoutChanges(() => call(session.POST, 'POST', { params: { app, user: 'u', id: 'given' }, body: {} }));
      expect(duplicate.status).toBe(409);
      expect(duplicate.json).toEqual({ detail: 'Session already exists: given' });
    });

    it('creates an empty session without a body and rejects a state that is not an object', async () => {
      const app = uniqueName('app');
      const empty = await call(session.POST, 'POST', { params: { app, user: 'u', id: 'e' } });
      expect((empty.json as SessionJson).state).toEqual({});
      const bad = await failsWithoutChanges(() => call(session.POST, 'POST', { params: { app, user: 'u', id: 'f' }, body: '"text"' }));
      expect(bad.status).toBe(400);
      expect(bad.json).toEqual({ detail: 'state: expected a JSON object, got a string' });
    });
  });

  describe('GET sessions', () => {
    it('lists a user’s sessions with merged state and no events', async () => {
      const app = uniqueName('app');
      await call(sessions.POST, 'POST', {
        params: { app, user: 'u' },
        body: { sessionId: 'a', state: { 'user:plan': 'pro' }, events: [{ author: 'x', actions: { stateDelta: { n: 1 } } }] },
      });
      await call(sessions.POST, 'POST', { params: { app, user: 'u' }, body: { sessionId: 'b' } });
      await call(sessions.POST, 'POST', { params: { app, user: 'other' }, body: { sessionId: 'c' } });
      const result = await call(sessions.GET, 'GET', { params: { app, user: 'u' } });
      expect(result.status).toBe(200);
      const list = result.json as SessionJson[];
      expect(list.map((s) => s.id).sort()).toEqual(['a', 'b']);
      for (const item of list) {
        expect(Object.keys(item)).toEqual(SESSION_FIELDS);
        expect(item.events).toEqual([]);
      }
      expect(list.find((s) => s.id === 'a')?.state).toEqual({ n: 1, 'user:plan': 'pro' });
      expect(list.find((s) => s.id === 'b')?.state).toEqual({ 'user:plan': 'pro' });
    });

    it('gets one session with its events, 404 when missing or owned by another user', async () => {
      const app = uniqueName('app');
      await call(sessions.POST, 'POST', { params: { app, user: 'u' }, body: { sessionId: 's', events: [{ author: 'a' }] } });
      const found = await call(session.GET, 'GET', { params: { app, user: 'u', id: 's' } });
      expect(found.status).toBe(200);
      expect((found.json as SessionJson).events).toHaveLength(1);
      for (const params of [
        { app, user: 'u', id: 'nope' },
        { app, user: 'someone-else', id: 's' },
      ]) {
        const missing = await call(session.GET, 'GET', { params });
        expect(missing.status).toBe(404);
        expect(missing.json).toEqual({ detail: 'Session not found' });
      }
    });

    it('gets the last events with numRecentEvents and afterTimestamp, as GetSessionConfig', async () => {
      const app = uniqueName('app');
      const events = [10, 20, 30, 40].map((timestamp) => ({ author: 'a', id: `e${timestamp}`, timestamp }));
      await call(sessions.POST, 'POST', { params: { app, user: 'u' }, body: { sessionId: 's', events } });
      const ids = async (query: string) => {
        const result = await call(session.GET, 'GET', { params: { app, user: 'u', id: 's' }, query });
        expect(result.status).toBe(200);
        return (result.json as SessionJson).events.map((e) => e.id);
      };
      expect(await ids('numRecentEvents=2')).toEqual(['e30', 'e40']);
      expect(await ids('numRecentEvents=0')).toEqual([]);
      expect(await ids('afterTimestamp=20')).toEqual(['e20', 'e30', 'e40']);
      expect(await ids('afterTimestamp=15&numRecentEvents=1')).toEqual(['e40']);
      const bad = await call(session.GET, 'GET', { params: { app, user: 'u', id: 's' }, query: 'numRecentEvents=-1' });
      expect(bad.status).toBe(400);
    });
  });

  describe('PATCH /api/apps/{app}/users/{user}/sessions/{id}', () => {
    it('appends a "user" event with a p- invocation id and returns the session', async () => {
      const app = uniqueName('app');
      await call(sessions.POST, 'POST', { params: { app, user: 'u' }, body: { sessionId: 's', state: { a: 1 } } });
      const result = await call(session.PATCH, 'PATCH', {
        params: { app, user: 'u', id: 's' },
        body: { stateDelta: { a: 2, 'user:b': true, 'temp:t': 1 } },
      });
      expect(result.status).toBe(200);
      const body = result.json as SessionJson;
      expect(Object.keys(body)).toEqual(SESSION_FIELDS);
      expect(body.state).toMatchObject({ a: 2, 'user:b': true });
      expect(body.events).toHaveLength(1);
      const event = body.events[0] as { author: string; invocationId: string; actions: { stateDelta: object } };
      expect(event.author).toBe('user');
      expect(event.invocationId).toMatch(/^p-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(event.actions.stateDelta).toEqual({ a: 2, 'user:b': true });

      const snake = await call(session.PATCH, 'PATCH', { params: { app, user: 'u', id: 's' }, body: { state_delta: { c: 3 } } });
      expect((snake.json as SessionJson).state).toEqual({ a: 2, c: 3, 'user:b': true });
      expect((snake.json as SessionJson).events).toHaveLength(2);
    });

    it('404s for a missing session and 400s for a bad body, changing nothing', async () => {
      const app = uniqueName('app');
      await call(sessions.POST, 'POST', { params: { app, user: 'u' }, body: { sessionId: 's' } });
      const missing = await failsWithoutChanges(() =>
        call(session.PATCH, 'PATCH', { params: { app, user: 'u', id: 'nope' }, body: { stateDelta: { a: 1 } } }),
      );
      expect(missing.status).toBe(404);
      expect(missing.json).toEqual({ detail: 'Session not found' });

      const cases: [unknown, string][] = [
        [{}, 'stateDelta: is required'],
        [{ stateDelta: [] }, 'stateDelta: expected a JSON object, got an array'],
        [{ stateDelta: { ['k'.repeat(300)]: 1 } }, 'stateDelta: key "'],
        ['{"stateDelta": {"a": 1,}}', 'Malformed JSON at line 1, column 24'],
        ['', 'body: required, got an empty body'],
      ];
      for (const [body, detail] of cases) {
        const result = await failsWithoutChanges(() => call(session.PATCH, 'PATCH', { params: { app, user: 'u', id: 's' }, body }));
        expect(result.status, JSON.stringify(body)).toBe(400);
        expect((result.json as { detail: string }).detail).toContain(detail);
      }
    });
  });

  it('refuses state changes a browser sends from another site (403), as ADK does', async () => {
    const app = uniqueName('app');
    await call(sessions.POST, 'POST', { params: { app, user: 'u' }, body: { sessionId: 's' } });
    const headers = { origin: 'https://evil.example', 'content-type': 'text/plain' };
    for (const [handler, method] of [
      [session.DELETE, 'DELETE'],
      [session.PATCH, 'PATCH'],
    ] as const) {
      const result = await failsWithoutChanges(() =>
        call(handler, method, { params: { app, user: 'u', id: 's' }, headers, body: { stateDelta: { a: 1 } } }),
      );
      expect(result.status).toBe(403);
      expect(detailOf(result)).toContain('Forbidden: origin not allowed');
    }
    const sameSite = await call(session.PATCH, 'PATCH', {
      params: { app, user: 'u', id: 's' },
      headers: { origin: 'http://localhost' },
      body: { stateDelta: { a: 1 } },
    });
    expect(sameSite.status).toBe(200);
  });

  describe('DELETE /api/apps/{app}/users/{user}/sessions/{id}', () => {
    it('answers 200 null, also when the session is already gone; shared state stays', async () => {
      const app = uniqueName('app');
      await call(sessions.POST, 'POST', { params: { app, user: 'u' }, body: { sessionId: 's', state: { 'app:keep': 1 } } });
      const params = { app, user: 'u', id: 's' };
      for (let i = 0; i < 2; i += 1) {
        const result = await call(session.DELETE, 'DELETE', { params });
        expect(result.status).toBe(200);
        expect(result.text).toBe('null');
      }
      expect((await call(session.GET, 'GET', { params })).status).toBe(404);
      const other = await call(sessions.POST, 'POST', { params: { app, user: 'v' }, body: { sessionId: 't' } });
      expect((other.json as SessionJson).state).toEqual({ 'app:keep': 1 });
    });
  });
});
