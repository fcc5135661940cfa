// The routes the dashboard reads and writes through (beyond ADK's), against
// SQLite and PostgreSQL.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setServicesForTests } from '@/lib/services';
import { openDatabase } from '@/lib/db';
import { call, databaseDump, detailOf } from '@/lib/testing/http';
import { STALE_SESSION_MESSAGE } from '@/lib/session-service/errors';
import { createNativeSessionStore } from '@/lib/stores/native';
import type { SessionStore } from '@/lib/session-service/store';
import { testProviders } from '@/lib/testing/databases';
import { uniqueName } from '@/lib/testing/factories';
import { useTestDatabase } from '@/lib/testing/use-test-database';
import * as apps from './apps/route';
import * as appHistory from './apps/[app]/history/route';
import * as appSessions from './apps/[app]/sessions/route';
import * as appState from './apps/[app]/state/route';
import * as users from './apps/[app]/users/route';
import * as userHistory from './apps/[app]/users/[user]/history/route';
import * as sessionRoute from './apps/[app]/users/[user]/sessions/[id]/route';
import * as sessionEvents from './apps/[app]/users/[user]/sessions/[id]/events/route';
import * as sessionState from './apps/[app]/users/[user]/sessions/[id]/state/route';
import * as userState from './apps/[app]/users/[user]/state/route';
import * as render from './render/route';
import { appendEvent } from '../../lib/session-service/append';
import { sqltag as sql } from '@prisma/client/runtime/client';

const providers = await testProviders();

describe.each(providers)('dashboard routes on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });

  async function failsWithoutChanges(request: () => Promise<{ status: number; json: unknown }>) {
    const before = await databaseDump(database);
    const result = await request();
    expect(await databaseDump(database)).toEqual(before);
    return result;
  }

  /** One app with two users and three sessions, a few events with deltas. */
  async function seed() {
    const app = uniqueName('app');
    const s1 = await database.service.createSession({ appName: app, userId: 'alice', sessionId: 'alpha', state: { plan: 'pro' } });
    await appendEvent(database.service, s1, { author: 'user', invocationId: 'i1', actions: { stateDelta: { 'user:lang': 'en' } } });
    await appendEvent(database.service, s1, { author: 'agent', invocationId: 'i1', actions: { stateDelta: { topic: 'tea', 'app:v': 1 } } });
    await appendEvent(database.service, s1, { author: 'agent', invocationId: 'i2', actions: { stateDelta: { topic: 'coffee' } } });
    await database.service.createSession({ appName: app, userId: 'alice', sessionId: 'beta', state: { plan: 'free' } });
    await database.service.createSession({ appName: app, userId: 'bob', sessionId: 'gamma' });
    return { app, ref: { app, user: 'alice', id: 'alpha' } };
  }

  describe('apps, users and session search', () => {
    it('GET /api/apps summarises apps', async () => {
      const { app } = await seed();
      const result = await call(apps.GET, 'GET');
      expect(result.status).toBe(200);
      const item = (result.json as { items: Record<string, unknown>[] }).items.find((a) => a.appName === app);
      expect(item).toMatchObject({ appName: app, sessionCount: 3, userCount: 2 });
      expect(typeof item?.lastUpdateTime).toBe('number');
    });

    it('GET /api/apps/{app}/users pages and filters', async () => {
      const { app } = await seed();
      const all = await call(users.GET, 'GET', { params: { app } });
      expect(all.json).toMatchObject({ total: 2 });
      expect((all.json as { items: { userId: string }[] }).items.map((u) => u.userId).sort()).toEqual(['alice', 'bob']);
      const filtered = await call(users.GET, 'GET', { params: { app }, query: 'q=ALI&limit=1&offset=0' });
      expect(filtered.json).toMatchObject({ items: [{ userId: 'alice', sessionCount: 2 }], total: 1 });
      const paged = await call(users.GET, 'GET', { params: { app }, query: 'limit=1&offset=1' });
      expect((paged.json as { items: unknown[]; total: number }).items).toHaveLength(1);
    });

    it('validates page parameters', async () => {
      const { app } = await seed();
      const cases: [string, string][] = [
        ['limit=0', 'limit: expected an integer from 1 to 1000, got "0"'],
        ['limit=1001', 'limit: expected an integer from 1 to 1000, got "1001"'],
        ['limit=1.5', 'limit: expected an integer from 1 to 1000, got "1.5"'],
        ['limit=ten', 'limit: expected an integer from 1 to 1000, got "ten"'],
        ['offset=-1', 'offset: expected an integer ≥ 0, got "-1"'],
        ['limit=1&limit=2', 'limit: given more than once'],
      ];
      for (const [query, detail] of cases) {
        const result = await call(users.GET, 'GET', { params: { app }, query });
        expect(result.status, query).toBe(400);
        expect(result.json).toEqual({ detail });
      }
      const fine = await call(users.GET, 'GET', { params: { app }, query: 'limit=1000&offset=' });
      expect(fine.status).toBe(200);
    });

    it('GET /api/apps/{app}/sessions searches by user, id, state key and value', async () => {
      const { app } = await seed();
      const ids = async (query: string) => {
        const result = await call(appSessions.GET, 'GET', { params: { app }, query });
        expect(result.status, query).toBe(200);
        const page = result.json as { items: { id: string }[]; total: number };
        expect(page.total).toBe(page.items.length);
        return page.items.map((s) => s.id).sort();
      };
      expect(await ids('')).toEqual(['alpha', 'beta', 'gamma']);
      expect(await ids('userId=alice')).toEqual(['alpha', 'beta']);
      expect(await ids('q=ET')).toEqual(['beta']);
      expect(await ids('stateKey=topic')).toEqual(['alpha']);
      expect(await ids('stateKey=plan&stateValue=%22free%22')).toEqual(['beta']);
      // Not JSON: taken as the string itself.
      expect(await ids('stateKey=plan&stateValue=pro')).toEqual(['alpha']);
      expect(await ids('state_key=user%3Alang')).toEqual(['alpha', 'beta']);
      const page = await call(appSessions.GET, 'GET', { params: { app }, query: 'userId=alice&limit=1' });
      expect(page.json).toMatchObject({ total: 2, items: [{ appName: app, userId: 'alice', revision: expect.any(Number) }] });
    });
  });

  describe('app and user state', () => {
    it('GET and PATCH /api/apps/{app}/state, recorded with actor and reason', async () => {
      const { app } = await seed();
      const before = await call(appState.GET, 'GET', { params: { app } });
      expect(before.json).toMatchObject({ entries: [{ key: 'v', value: 1 }] });

      const edited = await call(appState.PATCH, 'PATCH', {
        params: { app },
        body: JSON.parse('{"set": {"banner": {"text": "hi"}, "__proto__": 1}, "remove": ["v"], "reason": "launch"}'),
      });
      expect(edited.status).toBe(200);
      const entries = (edited.json as { entries: { key: string; value: unknown; lastChange: { actor: string; reason: string } }[] })
        .entries;
      expect(entries.map((e) => [e.key, e.value])).toEqual([
        ['__proto__', 1],
        ['banner', { text: 'hi' }],
      ]);
      expect(entries[1]?.lastChange).toMatchObject({ actor: 'api', reason: 'launch' });

      const named = await call(appState.PATCH, 'PATCH', {
        params: { app },
        body: { set: { banner: null }, reason: 'reset', actor: 'ops-bot' },
      });
      expect((named.json as { entries: { key: string; value: unknown; lastChange: { actor: string } }[] }).entries[1]).toMatchObject({
        key: 'banner',
        value: null,
        lastChange: { actor: 'ops-bot' },
      });
    });

    it('refuses edits without a reason or a change, changing nothing', async () => {
      const { app } = await seed();
      const cases: [unknown, string][] = [
        [{ set: { a: 1 } }, 'reason: is required'],
        [{ set: { a: 1 }, reason: '   ' }, 'reason: is required: say why you are changing this state'],
        [{ set: { a: 1 }, reason: 'r'.repeat(501) }, 'reason: must be at most 500 characters'],
        [{ reason: 'why' }, 'set/remove: at least one change is required'],
        [{ set: [], reason: 'why' }, 'set: expected a JSON object, got an array'],
        [{ set: { a: 1 }, remove: ['a'], reason: 'why' }, 'remove.0: "a" is both set and removed'],
        [{ remove: [1], reason: 'why' }, 'remove.0: expected a string, got a number'],
        [{ set: { '': 1 }, reason: 'why' }, 'set: keys must not be empty'],
        [{ set: { a: 1 }, reason: 'why', actor: '' }, 'actor: must not be empty'],
      ];
      for (const [body, detail] of cases) {
        const result = await failsWithoutChanges(() => call(appState.PATCH, 'PATCH', { params: { app }, body }));
        expect(result.status, JSON.stringify(body)).toBe(400);
        expect(result.json).toEqual({ detail });
      }
    });

    it('GET and PATCH /api/apps/{app}/users/{user}/state and the user history', async () => {
      const { app } = await seed();
      const params = { app, user: 'alice' };
      expect((await call(userState.GET, 'GET', { params })).json).toMatchObject({ entries: [{ key: 'lang', value: 'en' }] });
      const edited = await call(userState.PATCH, 'PATCH', { params, body: { set: { lang: 'fr' }, reason: 'asked' } });
      expect(edited.json).toMatchObject({ entries: [{ key: 'lang', value: 'fr', lastChange: { actor: 'api', reason: 'asked' } }] });

      const history = await call(userHistory.GET, 'GET', { params });
      expect(history.status).toBe(200);
      const page = history.json as { items: { key: string; oldValue?: unknown; newValue?: unknown; actor: string }[]; total: number };
      expect(page.total).toBe(2);
      expect(page.items[0]).toMatchObject({ key: 'lang', oldValue: 'en', newValue: 'fr', actor: 'api' });
      expect(page.items[1]).toMatchObject({ key: 'lang', newValue: 'en', actor: 'user' });
      expect(page.items[1]).not.toHaveProperty('oldValue');

      const future = await call(userHistory.GET, 'GET', { params, query: `since=${Date.now() / 1000 + 3600}` });
      expect(future.json).toEqual({ items: [], total: 0 });
      const bad = await call(userHistory.GET, 'GET', { params, query: 'since=yesterday' });
      expect(bad.status).toBe(400);
      expect(detailOf(bad)).toContain('since: expected seconds since the epoch');
    });

    it('GET /api/apps/{app}/history pages one key of one tier', async () => {
      const { app } = await seed();
      const session = await call(appHistory.GET, 'GET', {
        params: { app },
        query: 'scope=session&userId=alice&sessionId=alpha&key=topic',
      });
      expect(session.status).toBe(200);
      expect(session.json).toMatchObject({
        total: 2,
        items: [
          { key: 'topic', oldValue: 'tea', newValue: 'coffee', eventSeq: 3 },
          { key: 'topic', newValue: 'tea', eventSeq: 2 },
        ],
      });
      const appTier = await call(appHistory.GET, 'GET', { params: { app }, query: 'scope=app&key=v&limit=1' });
      expect(appTier.json).toMatchObject({ total: 1, items: [{ scope: 'app', key: 'v', newValue: 1 }] });

      const cases: [string, string][] = [
        ['key=v', 'scope: must be app, user or session'],
        ['scope=app', 'key: is required'],
        ['scope=tier&key=v', 'scope: must be app, user or session'],
        ['scope=user&key=v', 'userId: is required for user and session scope'],
        ['scope=session&userId=alice&key=v', 'sessionId: is required for session scope'],
      ];
      for (const [query, detail] of cases) {
        const result = await call(appHistory.GET, 'GET', { params: { app }, query });
        expect(result.status, query).toBe(400);
        expect(result.json).toEqual({ detail });
      }
    });
  });

  describe('session events and state', () => {
    it('GET events pages by sequence with filters', async () => {
      const { ref } = await seed();
      const all = await call(sessionEvents.GET, 'GET', { params: ref });
      expect(all.status).toBe(200);
      const page = all.json as { items: { seq: number; event: { author: string; invocationId: string } }[]; total: number };
      expect(page.total).toBe(3);
      expect(page.items.map((i) => i.seq)).toEqual([1, 2, 3]);
      expect(Object.keys(page.items[0] ?? {})).toEqual(['seq', 'event']);

      const seqs = async (query: string) => {
        const result = await call(sessionEvents.GET, 'GET', { params: ref, query });
        expect(result.status, query).toBe(200);
        return (result.json as typeof page).items.map((i) => i.seq);
      };
      expect(await seqs('after=1')).toEqual([2, 3]);
      expect(await seqs('order=desc&limit=2')).toEqual([3, 2]);
      expect(await seqs('order=desc&limit=2&offset=2')).toEqual([1]);
      expect(await seqs('author=agent')).toEqual([2, 3]);
      expect(await seqs('invocationId=i2')).toEqual([3]);
      expect(await seqs('invocation_id=i1')).toEqual([1, 2]);
      expect(await seqs('key=topic')).toEqual([2, 3]);
      expect(await seqs('key=app%3Av')).toEqual([2]);
      expect(await seqs('key=user%3Alang')).toEqual([1]);
      // Filters combine; a page of the newest events after a known one.
      expect(await seqs('after=1&order=desc&limit=1')).toEqual([3]);
      expect(await seqs('author=agent&key=topic&order=desc')).toEqual([3, 2]);
      expect(await seqs('after=3')).toEqual([]);
      expect(await seqs('key=nothing')).toEqual([]);

      const badOrder = await call(sessionEvents.GET, 'GET', { params: ref, query: 'order=up' });
      expect(badOrder.json).toEqual({ detail: 'order: must be asc or desc' });
      const missing = await call(sessionEvents.GET, 'GET', { params: { ...ref, id: 'nope' } });
      expect(missing.status).toBe(404);
      expect(missing.json).toEqual({ detail: 'Session nope not found.' });
    });

    it('POST events appends a full ADK event (camel or snake) and returns it as stored', async () => {
      const { ref } = await seed();
      const camel = await call(sessionEvents.POST, 'POST', {
        params: ref,
        body: {
          id: 'ev-camel',
          author: 'agent',
          invocationId: 'i3',
          timestamp: 1_900_000_000.125,
          content: { role: 'model', parts: [{ text: 'hello' }] },
          actions: { stateDelta: { topic: 'juice', 'temp:t': 1 }, artifactDelta: { 'report.txt': 0 } },
          customMetadata: { trace_id: 'x' },
        },
      });
      expect(camel.status).toBe(200);
      expect(camel.headers.get('etag')).toBe('"4"');
      expect(camel.json).toEqual({
        id: 'ev-camel',
        author: 'agent',
        invocationId: 'i3',
        timestamp: 1_900_000_000.125,
        content: { role: 'model', parts: [{ text: 'hello' }] },
        actions: {
          stateDelta: { topic: 'juice' },
          artifactDelta: { 'report.txt': 0 },
          requestedAuthConfigs: {},
          requestedToolConfirmations: {},
        },
        customMetadata: { trace_id: 'x' },
      });
      expect(camel.text).toContain('"timestamp":1900000000.125');

      const snake = await call(sessionEvents.POST, 'POST', {
        params: ref,
        body: { author: 'tool', invocation_id: 'i4', error_code: 'E1', long_running_tool_ids: ['t'], branch: null },
      });
      expect(snake.json).toMatchObject({ author: 'tool', invocationId: 'i4', errorCode: 'E1', longRunningToolIds: ['t'] });
      expect(snake.json).not.toHaveProperty('branch');
      expect((snake.json as { id: string }).id).toMatch(/^[0-9a-f-]{36}$/);

      const state = await call(sessionState.GET, 'GET', { params: ref });
      expect(state.json).toMatchObject({ revision: 5, eventCount: 5, lastUpdateTime: expect.any(Number) });
    });

    it('honours If-Match: appends on the named revision, 409 with ADK’s text when stale', async () => {
      const { ref } = await seed();
      const guarded = await call(sessionEvents.POST, 'POST', {
        params: ref,
        headers: { 'If-Match': '"3"' },
        body: { author: 'user', actions: { stateDelta: { topic: 'milk' } } },
      });
      expect(guarded.status).toBe(200);
      expect(guarded.headers.get('etag')).toBe('"4"');

      const stale = await failsWithoutChanges(() =>
        call(sessionEvents.POST, 'POST', { params: ref, headers: { 'If-Match': '3' }, body: { author: 'user' } }),
      );
      expect(stale.status).toBe(409);
      expect(stale.json).toEqual({ detail: STALE_SESSION_MESSAGE });

      const garbage = await failsWithoutChanges(() =>
        call(sessionEvents.POST, 'POST', { params: ref, headers: { 'If-Match': 'latest' }, body: { author: 'user' } }),
      );
      expect(garbage.status).toBe(400);
      expect(detailOf(garbage)).toContain('If-Match: expected the session');
    });

    it('appends concurrent unguarded events and PATCHes to one session without refusing any', async () => {
      const { ref } = await seed();
      const results = await Promise.all([
        ...Array.from({ length: 12 }, (_, i) =>
          call(sessionEvents.POST, 'POST', { params: ref, body: { author: `writer-${i}`, actions: { stateDelta: { [`w${i}`]: i } } } }),
        ),
        ...Array.from({ length: 4 }, (_, i) => call(sessionRoute.PATCH, 'PATCH', { params: ref, body: { stateDelta: { [`p${i}`]: i } } })),
      ]);
      expect(results.map((r) => r.status)).toEqual(Array(16).fill(200));
      const state = await call(sessionState.GET, 'GET', { params: ref });
      expect(state.json).toMatchObject({ revision: 3 + 16, eventCount: 3 + 16 });
    });

    it('POST events: 404 for an unknown session, 400 for a bad event, partial events not stored', async () => {
      const { ref } = await seed();
      const missing = await failsWithoutChanges(() =>
        call(sessionEvents.POST, 'POST', { params: { ...ref, id: 'nope' }, body: { author: 'user' } }),
      );
      expect(missing.status).toBe(404);
      expect(missing.json).toEqual({ detail: 'Session nope not found.' });
      const missingPartial = await call(sessionEvents.POST, 'POST', {
        params: { ...ref, id: 'nope' },
        body: { author: 'a', partial: true },
      });
      expect(missingPartial.status).toBe(404);

      const cases: [unknown, string][] = [
        [{ author: '' }, 'author: must not be empty'],
        [{ author: 'a', partial: 'yes' }, 'partial: expected a boolean, got a string'],
        [{ author: 'a', content: { parts: 'hi' } }, 'content.parts: expected an array, got a string'],
        [{ author: 'a', actions: { artifactDelta: { f: 'v1' } } }, 'actions.artifactDelta: versions must be integers'],
        [{ author: 'a', invocation_id: 'x', invocationId: 'y' }, 'invocationId: given twice, as invocation_id and invocationId'],
        [[], 'body: expected a JSON object, got an array'],
      ];
      for (const [body, detail] of cases) {
        const result = await failsWithoutChanges(() => call(sessionEvents.POST, 'POST', { params: ref, body }));
        expect(result.status, JSON.stringify(body)).toBe(400);
        expect(result.json).toEqual({ detail });
      }

      const partial = await failsWithoutChanges(() =>
        call(sessionEvents.POST, 'POST', {
          params: ref,
          body: { author: 'agent', partial: true, content: { parts: [{ text: 'he' }] }, actions: { stateDelta: { x: 1 } } },
        }),
      );
      expect(partial.status).toBe(200);
      expect(partial.json).toMatchObject({ author: 'agent', partial: true });
    });

    it('GET session state: tiers now and as of an event', async () => {
      const { ref } = await seed();
      const now = await call(sessionState.GET, 'GET', { params: ref });
      expect(now.status).toBe(200);
      const body = now.json as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['app', 'user', 'session', 'revision', 'lastUpdateTime', 'eventCount']);
      expect(body).toMatchObject({ revision: 3, eventCount: 3 });
      expect(body.session).toEqual([
        expect.objectContaining({ key: 'plan', value: 'pro' }),
        expect.objectContaining({ key: 'topic', value: 'coffee' }),
      ]);
      expect(body.user).toEqual([expect.objectContaining({ key: 'lang', value: 'en' })]);

      const asOf = await call(sessionState.GET, 'GET', { params: ref, query: 'asOf=2' });
      expect(asOf.json).toMatchObject({
        session: [expect.objectContaining({ key: 'plan' }), expect.objectContaining({ key: 'topic', value: 'tea' })],
        app: [expect.objectContaining({ key: 'v', value: 1 })],
        revision: 3,
      });
      const early = await call(sessionState.GET, 'GET', { params: ref, query: 'as_of=1' });
      expect((early.json as { session: { key: string }[] }).session.map((e) => e.key)).toEqual(['plan']);

      const noEvent = await call(sessionState.GET, 'GET', { params: ref, query: 'asOf=99' });
      expect(noEvent.status).toBe(404);
      expect(noEvent.json).toEqual({ detail: 'Event 99 not found in session alpha.' });
      const noSession = await call(sessionState.GET, 'GET', { params: { ...ref, id: 'nope' } });
      expect(noSession.json).toEqual({ detail: 'Session not found' });
      const bad = await call(sessionState.GET, 'GET', { params: ref, query: 'asOf=last' });
      expect(bad.status).toBe(400);
    });
  });

  describe('POST /api/render', () => {
    it('renders against given state in both dialects', async () => {
      const body = {
        template: 'Hi {name}, {n} {flag} {obj} {missing?}{{x}} {not valid}',
        state: { name: 'Ada', n: 2.5, flag: true, obj: { a: null }, x: 'X' },
      };
      const python = await call(render.POST, 'POST', { body });
      expect(python.status).toBe(200);
      expect(python.json).toMatchObject({ text: "Hi Ada, 2.5 True {'a': None} X {not valid}", error: null });
      const ts = await call(render.POST, 'POST', { body: { ...body, dialect: 'typescript' } });
      expect((ts.json as { text: string }).text).toBe('Hi Ada, 2.5 true {"a":null} X {not valid}');
      const missing = await call(render.POST, 'POST', { body: { template: '{nope}', state: {} } });
      expect(missing.json).toMatchObject({ error: 'Context variable not found: `nope`.' });
    });

    it('keeps the number spelling of the given state in the python dialect (2.0 is a float)', async () => {
      const body = '{"template": "{f} {l} {i}", "state": {"f": 2.0, "l": [1.0, 2], "i": 2}}';
      const python = await call(render.POST, 'POST', { body });
      expect((python.json as { text: string }).text).toBe('2.0 [1.0, 2] 2');
    });

    it('renders against a session, now or as of an event', async () => {
      const { app } = await seed();
      const session = { appName: app, userId: 'alice', sessionId: 'alpha' };
      const now = await call(render.POST, 'POST', { body: { template: '{topic} {user:lang} {app:v}', session } });
      expect(now.json).toMatchObject({ text: 'coffee en 1' });
      const then = await call(render.POST, 'POST', {
        body: { template: '{topic}', session: { app_name: app, user_id: 'alice', session_id: 'alpha', as_of: 2 } },
      });
      expect(then.json).toMatchObject({ text: 'tea' });
      const gone = await call(render.POST, 'POST', { body: { template: '{x}', session: { ...session, sessionId: 'nope' } } });
      expect(gone.status).toBe(404);
      const noEvent = await call(render.POST, 'POST', { body: { template: '{x}', session: { ...session, asOf: 42 } } });
      expect(noEvent.json).toEqual({ detail: 'Event 42 not found in session alpha.' });
    });

    it('keeps the stored spelling of the session state numbers in the python dialect', async () => {
      const appName = uniqueName('floats');
      const ref = { appName, userId: 'alice', sessionId: 'spelled' };
      await database.service.createSession({ ...ref, state: { f: 2, e: 100, l: [1, 2], i: 2, 'app:g': 3, 'user:h': 4 } });
      // The texts a float written by a Python agent's json.dumps leaves.
      const pk = sql`(SELECT pk FROM sessions WHERE app_name = ${appName})`;
      for (const [key, value] of [
        ['f', '2.0'],
        ['e', '1e2'],
        ['l', '[1.0, 2]'],
      ]) {
        await database.db.client.$executeRaw(sql`UPDATE session_state SET value = ${value} WHERE key = ${key} AND session_pk = ${pk}`);
      }
      await database.db.client.$executeRaw(sql`UPDATE app_state SET value = '3.0' WHERE app_name = ${appName}`);
      await database.db.client.$executeRaw(sql`UPDATE user_state SET value = '4.0' WHERE app_name = ${appName}`);
      const template = '{f} {e} {l} {i} {app:g} {user:h}';
      const python = await call(render.POST, 'POST', { body: { template, session: ref } });
      expect(python.json).toMatchObject({ text: '2.0 100.0 [1.0, 2] 2 3.0 4.0', error: null });
      const typescript = await call(render.POST, 'POST', { body: { template, session: ref, dialect: 'typescript' } });
      expect(typescript.json).toMatchObject({ text: '2 100 [1,2] 2 3 4' });

      // The state the console's previews render from carries the same spelling (whole values only, not as of an event).
      const params = { app: appName, user: 'alice', id: 'spelled' };
      type Tiers = Record<'app' | 'user' | 'session', { key: string; value: unknown; written?: string }[]>;
      for (const query of ['', 'preview=1']) {
        const view = (await call(sessionState.GET, 'GET', { params, query })).json as Tiers;
        expect(view.session.map(({ key, value, written }) => ({ key, value, written }))).toEqual([
          { key: 'e', value: 100, written: '1e2' },
          { key: 'f', value: 2, written: '2.0' },
          { key: 'i', value: 2, written: undefined },
          { key: 'l', value: [1, 2], written: '[1.0,2]' },
        ]);
        expect(view.app[0]).toMatchObject({ key: 'g', value: 3, written: '3.0' });
        expect(view.user[0]).toMatchObject({ key: 'h', value: 4, written: '4.0' });
      }
    });

    it('drops the stored spelling of a value the preview cuts', async () => {
      const appName = uniqueName('floats');
      const ref = { appName, userId: 'alice', sessionId: 'cut' };
      const big = Array.from({ length: 10_000 }, (_, i) => i);
      await database.service.createSession({ ...ref, state: { big } });
      const spelled = `[${big.map((i) => `${i}.0`).join(',')}]`;
      await database.db.client.$executeRaw(sql`UPDATE session_state SET value = ${spelled} WHERE key = 'big'
        AND session_pk = (SELECT pk FROM sessions WHERE app_name = ${appName})`);
      const params = { app: appName, user: 'alice', id: 'cut' };
      type Tiers = { session: { written?: string }[] };
      const whole = (await call(sessionState.GET, 'GET', { params })).json as Tiers;
      expect(whole.session[0]?.written).toBe(spelled);
      const preview = (await call(sessionState.GET, 'GET', { params, query: 'preview=1' })).json as Tiers;
      expect(preview.session[0]).not.toHaveProperty('written');
    });

    it('needs exactly one of state and session', async () => {
      const cases: [unknown, string][] = [
        [{ template: 'x' }, 'state/session: give exactly one'],
        [{ template: 'x', state: {}, session: { appName: 'a', userId: 'u', sessionId: 's' } }, 'state/session: give exactly one'],
        [{ state: {} }, 'template: is required'],
        [{ template: 'x', state: {}, dialect: 'go' }, 'dialect: must be "python" or "typescript"'],
        [{ template: 'x', session: { appName: 'a', userId: 'u' } }, 'session.sessionId: is required'],
      ];
      for (const [body, detail] of cases) {
        const result = await call(render.POST, 'POST', { body });
        expect(result.status, JSON.stringify(body)).toBe(400);
        expect(detailOf(result)).toContain(detail);
      }
    });
  });
});

describe('failures outside the request', () => {
  afterEach(() => {
    setServicesForTests({});
    vi.restoreAllMocks();
  });

  it('answers 503 "Database unavailable" when the database cannot be reached', async () => {
    const db = await openDatabase('postgresql://postgres@127.0.0.1:1/statehouse');
    setServicesForTests({ store: createNativeSessionStore(db.client, db.provider) });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const result = await call(apps.GET, 'GET');
      expect(result.status).toBe(503);
      expect(detailOf(result)).toMatch(/^Database unavailable: Can't reach database server/);
    } finally {
      await db.close();
    }
  });

  it('answers 500 with a generic detail for a bug, and logs it', async () => {
    const broken = {
      listApps: async () => {
        throw new TypeError('secret internals');
      },
    } as unknown as SessionStore;
    setServicesForTests({ store: broken });
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const result = await call(apps.GET, 'GET');
    expect(result.status).toBe(500);
    expect(detailOf(result)).not.toContain('secret');
    expect(log).toHaveBeenCalled();
  });
});

describe.each(providers)('appends without a revision on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });

  it('all land, however many writers get in first: none is refused as stale', async () => {
    const ref = { appName: uniqueName('unguarded'), userId: 'u', sessionId: 's' };
    await database.service.createSession(ref);
    const params = { app: ref.appName, user: ref.userId, id: ref.sessionId };
    const results = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) =>
        call(sessionEvents.POST, 'POST', { params, body: { author: 'agent', actions: { stateDelta: { [`k${i}`]: i } } } }),
      ),
      call(sessionRoute.PATCH, 'PATCH', { params, body: { stateDelta: { patched: true } } }),
    ]);
    expect(results.map((result) => result.status)).toEqual(Array(9).fill(200));
    const session = await database.service.getSession(ref);
    expect(session?.events).toHaveLength(9);
    expect(session?.state).toMatchObject({ k0: 0, k7: 7, patched: true });
  });
});
