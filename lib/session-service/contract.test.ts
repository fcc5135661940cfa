// The session service's contract (docs/semantics.md, every section before
// the HTTP API), run against every backend: an embedded SQLite file and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { databaseDump } from '../testing/http';
import { testProviders } from '../testing/databases';
import { agentDelta, uniqueName } from '../testing/factories';
import { failEventInsert, INJECTED_FAILURE } from '../testing/faults';
import { useTestDatabase } from '../testing/use-test-database';
import { STALE_SESSION_MESSAGE, type SessionServiceError } from './errors';
import { renderTemplate } from './template';
import type { NewEvent, Session } from './types';
import { appendEvent } from './append';

const providers = await testProviders();

async function rejection(promise: Promise<unknown>): Promise<SessionServiceError> {
  try {
    await promise;
  } catch (error) {
    return error as SessionServiceError;
  }
  throw new Error('expected a rejection');
}

describe.each(providers)('session service on %s', (provider) => {
  const database = useTestDatabase(provider);

  describe('1. scoped state', () => {
    it('splits initial state by prefix and merges it back on read', async () => {
      const app = uniqueName('app');
      const created = await database.service.createSession({
        appName: app,
        userId: 'u1',
        sessionId: 's1',
        state: { 'app:tone': 'warm', 'user:name': 'Ada', topic: 'math', 'temp:scratch': 1, 'APP:x': 2 },
      });
      expect(created.events).toEqual([]);
      expect(created.state).toEqual({ topic: 'math', 'APP:x': 2, 'app:tone': 'warm', 'user:name': 'Ada' });
      // Session keys first, then app keys, then user keys.
      expect(Object.keys(created.state).slice(2)).toEqual(['app:tone', 'user:name']);

      const tiers = await database.service.getSessionTiers({ appName: app, userId: 'u1', sessionId: 's1' });
      expect(tiers?.app.map((e) => [e.key, e.value])).toEqual([['tone', 'warm']]);
      expect(tiers?.user.map((e) => [e.key, e.value])).toEqual([['name', 'Ada']]);
      expect(tiers?.session.map((e) => [e.key, e.value])).toEqual([
        ['APP:x', 2],
        ['topic', 'math'],
      ]);
    });

    it('shares app state with every user and user state with every session of that user at once', async () => {
      const app = uniqueName('app');
      await database.service.createSession({ appName: app, userId: 'u1', sessionId: 'a', state: { 'app:v': 1, 'user:v': 2 } });
      const sibling = await database.service.createSession({ appName: app, userId: 'u1', sessionId: 'b' });
      const stranger = await database.service.createSession({ appName: app, userId: 'u2', sessionId: 'c' });
      expect(sibling.state).toEqual({ 'app:v': 1, 'user:v': 2 });
      expect(stranger.state).toEqual({ 'app:v': 1 });
    });

    it('counts only the first prefix and keeps x, app:x and user:x apart', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      await appendEvent(database.service, session, agentDelta({ x: 1, 'app:x': 2, 'user:x': 3, 'app:user:x': 4 }));
      const tiers = await database.service.getSessionTiers({ appName: app, userId: 'u', sessionId: 's' });
      expect(tiers?.app.map((e) => e.key)).toEqual(['user:x', 'x']);
      const loaded = await database.service.getSession({ appName: app, userId: 'u', sessionId: 's' });
      expect(loaded?.state).toEqual({ x: 1, 'app:x': 2, 'app:user:x': 4, 'user:x': 3 });
    });

    it('stores null as JSON null and replaces nested objects whole', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's', state: { k: 1 } });
      await appendEvent(database.service, session, agentDelta({ k: null, obj: { a: 1, b: { c: 2 } } }));
      await appendEvent(database.service, session, agentDelta({ obj: { b: { d: 3 } } }));
      const loaded = await database.service.getSession({ appName: app, userId: 'u', sessionId: 's' });
      expect(loaded?.state).toEqual({ k: null, obj: { b: { d: 3 } } });
      expect(Object.hasOwn(loaded?.state ?? {}, 'k')).toBe(true);
    });

    it('treats __proto__ and constructor as ordinary keys without polluting objects', async () => {
      const app = uniqueName('app');
      const state = JSON.parse('{"__proto__": {"polluted": true}, "constructor": "c", "user:__proto__": 1}');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's', state });
      await appendEvent(database.service, session, agentDelta(JSON.parse('{"app:__proto__": {"x": 1}, "toString": 5}')));
      const loaded = await database.service.getSession({ appName: app, userId: 'u', sessionId: 's' });
      expect(JSON.stringify(loaded?.state)).toBe(
        '{"__proto__":{"polluted":true},"constructor":"c","toString":5,"app:__proto__":{"x":1},"user:__proto__":1}',
      );
      expect(Object.getPrototypeOf(loaded?.state)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf(session.state)).toBe(Object.prototype);
    });

    it('round-trips non-ASCII keys and values and 1 MiB values exactly', async () => {
      const app = uniqueName('app');
      const big = 'é'.repeat(512 * 1024) + '😀'.repeat(1000);
      const session = await database.service.createSession({ appName: app, userId: 'ユーザー', sessionId: 'séance' });
      await appendEvent(
        database.service,
        session,
        agentDelta({ 名前: 'Zoë 😀', 'user:größe': big, nested: { ключ: ['\u0000', '\u2028'] } }),
      );
      const loaded = await database.service.getSession({ appName: app, userId: 'ユーザー', sessionId: 'séance' });
      expect(loaded?.state['名前']).toBe('Zoë 😀');
      expect(loaded?.state['user:größe']).toBe(big);
      expect(loaded?.state.nested).toEqual({ ключ: ['\u0000', '\u2028'] });
      expect(loaded?.events[0]?.actions.stateDelta['user:größe']).toBe(big);
    });
  });

  describe('2. events', () => {
    it('assigns ids and timestamps when absent and preserves them when given', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      const generated = await appendEvent(database.service, session, { author: 'user' });
      expect(generated.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(generated.timestamp).toBeGreaterThan(1_700_000_000);
      const given = await appendEvent(database.service, session, { id: 'evt-1', author: 'user', timestamp: 1_800_000_000.123456 });
      expect(given.id).toBe('evt-1');
      const loaded = await database.service.getSession({ appName: app, userId: 'u', sessionId: 's' });
      expect(loaded?.events.map((e) => e.id)).toEqual([generated.id, 'evt-1']);
      expect(loaded?.events[1]?.timestamp).toBe(1_800_000_000.123456);
    });

    it('preserves every field, unknown ones included', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      const event: NewEvent = {
        id: 'e1',
        author: 'model',
        invocationId: 'inv',
        branch: 'root.sub',
        timestamp: 1_750_000_000.5,
        content: { role: 'model', parts: [{ text: 'hi' }, { functionCall: { id: 'c1', name: 'f', args: { a: 1 } } }] },
        turnComplete: true,
        errorCode: 'E',
        errorMessage: 'msg',
        interrupted: false,
        longRunningToolIds: ['c1'],
        customMetadata: { m: 1 },
        usageMetadata: { promptTokenCount: 3 },
        futureField: { kept: true },
        actions: { stateDelta: { k: 'v' }, transferToAgent: 'other', escalate: true, skipSummarization: true, extraAction: 1 },
      };
      await appendEvent(database.service, session, event);
      const loaded = await database.service.getSession({ appName: app, userId: 'u', sessionId: 's' });
      expect(loaded?.events[0]).toEqual({
        ...event,
        actions: {
          ...event.actions,
          artifactDelta: {},
          requestedAuthConfigs: {},
          requestedToolConfirmations: {},
        },
      });
    });

    it('returns a partial event untouched: not stored, not applied', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      const result = await appendEvent(database.service, session, agentDelta({ k: 1, 'user:k': 2 }, { partial: true, id: 'p' }));
      expect(result.id).toBe('p');
      expect(session.events).toEqual([]);
      expect(session.state).toEqual({});
      const loaded = await database.service.getSession({ appName: app, userId: 'u', sessionId: 's' });
      expect(loaded?.events).toEqual([]);
      expect(loaded?.state).toEqual({});
      expect(loaded?.revision).toBe(0);
    });

    it('applies temp: keys to the caller’s session only and never stores them', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      const stored = await appendEvent(database.service, session, agentDelta({ 'temp:t': 1, k: 2 }));
      expect(session.state).toEqual({ 'temp:t': 1, k: 2 });
      expect(stored.actions.stateDelta).toEqual({ k: 2 });
      expect(session.events[0]?.actions.stateDelta).toEqual({ k: 2 });
      const loaded = await database.service.getSession({ appName: app, userId: 'u', sessionId: 's' });
      expect(loaded?.state).toEqual({ k: 2 });
      expect(loaded?.events[0]?.actions.stateDelta).toEqual({ k: 2 });
      const rows = await database.db.client.$queryRaw<{ data: string }[]>`SELECT data FROM events`;
      expect(rows.some((r) => r.data.includes('temp:t'))).toBe(false);
    });

    it('persists the delta with the event and moves lastUpdateTime to the event’s timestamp', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      await appendEvent(database.service, session, agentDelta({ 'app:a': 1, 'user:b': 2, c: 3 }, { timestamp: 1_900_000_000.25 }));
      expect(session.lastUpdateTime).toBe(1_900_000_000.25);
      const loaded = await database.service.getSession({ appName: app, userId: 'u', sessionId: 's' });
      expect(loaded?.lastUpdateTime).toBe(1_900_000_000.25);
      expect(loaded?.state).toEqual({ c: 3, 'app:a': 1, 'user:b': 2 });
    });

    it('orders events by timestamp, ties by append order', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      for (const [id, timestamp] of [
        ['late', 30],
        ['tie-1', 20],
        ['early', 10],
        ['tie-2', 20],
      ] as const) {
        await appendEvent(database.service, session, { id, author: 'a', timestamp });
      }
      const loaded = await database.service.getSession({ appName: app, userId: 'u', sessionId: 's' });
      expect(loaded?.events.map((e) => e.id)).toEqual(['early', 'tie-1', 'tie-2', 'late']);
    });
  });

  describe('creating a session with its events', () => {
    it('appends them in order in the same write, as appendEvent would one by one', async () => {
      const app = uniqueName('app');
      const created = await database.service.createSession(
        {
          appName: app,
          userId: 'u',
          sessionId: 's',
          state: { step: 0, 'user:plan': 'free' },
          events: [
            agentDelta({ step: 1, 'app:seen': true }, { id: 'e1', timestamp: 1_750_000_000 }),
            agentDelta({ step: 99 }, { id: 'skipped', partial: true }),
            agentDelta({ step: 2, 'user:plan': 'pro', 'temp:scratch': 'x' }, { id: 'e2', timestamp: 1_750_000_001.5 }),
          ],
        },
        { actor: 'alice' },
      );
      expect(created.events.map((e) => e.id)).toEqual(['e1', 'e2']);
      expect(created.events[1]?.actions.stateDelta).toEqual({ step: 2, 'user:plan': 'pro' });
      // The caller's copy sees every delta, temp: keys included; storage never has them.
      expect(created.state).toEqual({ step: 2, 'app:seen': true, 'user:plan': 'pro', 'temp:scratch': 'x' });
      expect(created.lastUpdateTime).toBe(1_750_000_001.5);
      expect(created.revision).toBe(2);

      const loaded = await database.service.getSession({ appName: app, userId: 'u', sessionId: 's' });
      expect(loaded?.state).toEqual({ step: 2, 'app:seen': true, 'user:plan': 'pro' });
      expect(loaded?.events).toEqual(created.events);
      expect(loaded?.revision).toBe(2);
      // The copy is current: appending through it is not stale.
      await appendEvent(database.service, created, agentDelta({ step: 3 }));
      const history = await database.service.getKeyHistory({ appName: app, scope: 'user', userId: 'u', key: 'plan' });
      expect(history.items.map((c) => [c.newValue, c.actor, c.eventSeq])).toEqual([
        ['pro', 'alice', 2],
        ['free', 'session:create', null],
      ]);
    });

    it('writes nothing when an event is invalid', async () => {
      const app = uniqueName('app');
      const before = await databaseDump(database);
      const error = await rejection(
        database.service.createSession({
          appName: app,
          userId: 'u',
          sessionId: 's',
          state: { 'app:a': 1, 'user:b': 2, c: 3 },
          events: [agentDelta({ 'user:b': 3 }), agentDelta({ c: 4 }, { timestamp: Number.NaN })],
        }),
      );
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message).toBe('event.timestamp must be a finite number of seconds.');
      expect(await databaseDump(database)).toEqual(before);
    });

    it('writes nothing when the database fails midway, and the id stays free', async () => {
      const app = uniqueName('app');
      const restore = await failEventInsert(database, `poison-${app}`);
      const request = {
        appName: app,
        userId: 'u',
        sessionId: 's',
        state: { 'app:a': 1, 'user:b': 2, c: 3 },
        events: [
          agentDelta({ 'app:a': 10, 'user:b': 20, c: 30 }, { id: 'first' }),
          agentDelta({ 'user:b': 21 }, { id: `poison-${app}` }),
          agentDelta({ c: 31 }, { id: 'third' }),
        ],
      };
      const before = await databaseDump(database);
      try {
        await expect(database.service.createSession(request)).rejects.toThrow(INJECTED_FAILURE);
        expect(await databaseDump(database)).toEqual(before);
      } finally {
        await restore();
      }
      const retried = await database.service.createSession(request);
      expect(retried.state).toEqual({ c: 31, 'app:a': 10, 'user:b': 21 });
      expect(retried.events).toHaveLength(3);
    });

    it('writes none of the events for a duplicate id', async () => {
      const app = uniqueName('app');
      await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      const before = await databaseDump(database);
      const error = await rejection(
        database.service.createSession({ appName: app, userId: 'u', sessionId: 's', events: [agentDelta({ 'user:x': 1 })] }),
      );
      expect(error.code).toBe('ALREADY_EXISTS');
      expect(await databaseDump(database)).toEqual(before);
    });
  });

  describe('3. reading a session', () => {
    async function sessionWithEvents(app: string): Promise<Session> {
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      for (let i = 1; i <= 5; i += 1) await appendEvent(database.service, session, { id: `e${i}`, author: 'a', timestamp: i * 10 });
      return session;
    }
    const ref = (appName: string) => ({ appName, userId: 'u', sessionId: 's' });
    const ids = (session: Session | null) => session?.events.map((e) => e.id);

    it('returns null when absent, including for the wrong user', async () => {
      const app = uniqueName('app');
      await sessionWithEvents(app);
      expect(await database.service.getSession({ appName: app, userId: 'u', sessionId: 'nope' })).toBeNull();
      expect(await database.service.getSession({ appName: app, userId: 'other', sessionId: 's' })).toBeNull();
    });

    it('honours numRecentEvents and afterTimestamp (inclusive), filtering first', async () => {
      const app = uniqueName('app');
      await sessionWithEvents(app);
      expect(ids(await database.service.getSession(ref(app)))).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
      expect(ids(await database.service.getSession(ref(app), { numRecentEvents: 0 }))).toEqual([]);
      expect(ids(await database.service.getSession(ref(app), { numRecentEvents: 2 }))).toEqual(['e4', 'e5']);
      expect(ids(await database.service.getSession(ref(app), { numRecentEvents: 99 }))).toHaveLength(5);
      expect(ids(await database.service.getSession(ref(app), { afterTimestamp: 30 }))).toEqual(['e3', 'e4', 'e5']);
      expect(ids(await database.service.getSession(ref(app), { afterTimestamp: 0 }))).toHaveLength(5);
      expect(ids(await database.service.getSession(ref(app), { afterTimestamp: 20, numRecentEvents: 2 }))).toEqual(['e4', 'e5']);
      expect(ids(await database.service.getSession(ref(app), { afterTimestamp: 45, numRecentEvents: 3 }))).toEqual(['e5']);
    });

    it('rejects a negative numRecentEvents', async () => {
      const error = await rejection(database.service.getSession(ref(uniqueName('app')), { numRecentEvents: -1 }));
      expect(error.code).toBe('INVALID_INPUT');
    });

    it('lists sessions with merged state and no events, per user or for the whole app', async () => {
      const app = uniqueName('app');
      const s1 = await database.service.createSession({ appName: app, userId: 'u1', sessionId: 's1', state: { a: 1, 'user:n': 'x' } });
      await appendEvent(database.service, s1, agentDelta({ b: 2, 'app:shared': true }));
      await database.service.createSession({ appName: app, userId: 'u2', sessionId: 's2', state: { c: 3 } });
      const mine = await database.service.listSessions({ appName: app, userId: 'u1' });
      expect(mine.sessions).toHaveLength(1);
      expect(mine.sessions[0]).toMatchObject({ id: 's1', events: [], state: { a: 1, b: 2, 'app:shared': true, 'user:n': 'x' } });
      const all = await database.service.listSessions({ appName: app });
      expect(all.sessions.map((s) => [s.userId, s.id, s.state])).toEqual([
        ['u1', 's1', { a: 1, b: 2, 'app:shared': true, 'user:n': 'x' }],
        ['u2', 's2', { c: 3, 'app:shared': true }],
      ]);
      expect((await database.service.listSessions({ appName: uniqueName('app') })).sessions).toEqual([]);
    });

    it('deletes the session and its events but keeps app and user state; deleting again is a no-op', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      await appendEvent(database.service, session, agentDelta({ 'app:a': 1, 'user:b': 2, c: 3 }));
      await database.service.deleteSession(ref(app));
      await database.service.deleteSession(ref(app));
      expect(await database.service.getSession(ref(app))).toBeNull();
      const events = await database.db.client.$queryRaw<
        { n: unknown }[]
      >`SELECT COUNT(*) AS n FROM events e JOIN sessions s ON s.pk = e.session_pk WHERE s.app_name = ${app}`;
      expect(Number(events[0]?.n)).toBe(0);
      const orphans = await database.db.client.$queryRaw<
        { n: unknown }[]
      >`SELECT COUNT(*) AS n FROM events WHERE session_pk NOT IN (SELECT pk FROM sessions)`;
      expect(Number(orphans[0]?.n)).toBe(0);
      const fresh = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      expect(fresh.state).toEqual({ 'app:a': 1, 'user:b': 2 });
    });

    it('refuses a duplicate session id with ADK’s message', async () => {
      const app = uniqueName('app');
      await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      const error = await rejection(database.service.createSession({ appName: app, userId: 'u', sessionId: 's' }));
      expect(error.code).toBe('ALREADY_EXISTS');
      expect(error.message).toBe('Session already exists: s');
      // The same id for another user is a different session.
      await expect(database.service.createSession({ appName: app, userId: 'u2', sessionId: 's' })).resolves.toMatchObject({ id: 's' });
    });
  });

  describe('4. concurrency', () => {
    it('loses no user: writes from 8 sessions of one user appending at once', async () => {
      const app = uniqueName('app');
      const sessions = await Promise.all(
        Array.from({ length: 8 }, (_, i) => database.service.createSession({ appName: app, userId: 'u', sessionId: `s${i}` })),
      );
      const rounds = 5;
      await Promise.all(
        sessions.map(async (session, i) => {
          for (let round = 0; round < rounds; round += 1) {
            await appendEvent(database.service, session, agentDelta({ [`user:k${i}`]: round, 'user:shared': `${i}-${round}` }));
          }
        }),
      );
      const loaded = await database.service.getSession({ appName: app, userId: 'u', sessionId: 's0' });
      for (let i = 0; i < 8; i += 1) expect(loaded?.state[`user:k${i}`]).toBe(rounds - 1);
      expect(sessions.map((s) => `${sessions.indexOf(s)}-${rounds - 1}`)).toContain(loaded?.state['user:shared']);
      const history = await database.service.getKeyHistory({ appName: app, scope: 'user', userId: 'u', key: 'shared', limit: 100 });
      expect(history.total).toBe(8 * rounds);
      // Each change's old value is the previous change's new value: the history is one unbroken chain.
      const chain = [...history.items].reverse();
      expect(chain[0]?.oldValue).toBeUndefined();
      for (let i = 1; i < chain.length; i += 1) expect(chain[i]?.oldValue).toEqual(chain[i - 1]?.newValue);
    });

    it('lets exactly one of two stale copies append, with ADK’s message for the other', async () => {
      const app = uniqueName('app');
      await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      const ref = { appName: app, userId: 'u', sessionId: 's' };
      const [a, b] = await Promise.all([database.service.getSession(ref), database.service.getSession(ref)]);
      const results = await Promise.allSettled([
        appendEvent(database.service, a as Session, agentDelta({ k: 'a' })),
        appendEvent(database.service, b as Session, agentDelta({ k: 'b' })),
      ]);
      const fulfilled = results.filter((r) => r.status === 'fulfilled');
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(fulfilled).toHaveLength(1);
      expect(rejected).toHaveLength(1);
      expect(rejected[0]?.reason.code).toBe('STALE_SESSION');
      expect(rejected[0]?.reason.message).toBe(STALE_SESSION_MESSAGE);
      const loaded = await database.service.getSession(ref);
      expect(loaded?.events).toHaveLength(1);
    });

    it('never rejects a current copy, however close the timestamps', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      for (let i = 0; i < 20; i += 1) await appendEvent(database.service, session, { author: 'a', timestamp: 1_000 });
      const reloaded = await database.service.getSession({ appName: app, userId: 'u', sessionId: 's' });
      await appendEvent(database.service, reloaded as Session, { author: 'a', timestamp: 999 });
      await expect(appendEvent(database.service, session, { author: 'a' })).rejects.toMatchObject({ code: 'STALE_SESSION' });
    });

    it('fails an append to a missing session with ADK’s message', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 'gone' });
      await database.service.deleteSession({ appName: app, userId: 'u', sessionId: 'gone' });
      const error = await rejection(appendEvent(database.service, session, { author: 'a' }));
      expect(error.code).toBe('NOT_FOUND');
      expect(error.message).toBe('Session gone not found.');
    });

    it('records both writers of the same key in its history', async () => {
      const app = uniqueName('app');
      const [s1, s2] = await Promise.all([
        database.service.createSession({ appName: app, userId: 'u', sessionId: 'a' }),
        database.service.createSession({ appName: app, userId: 'u', sessionId: 'b' }),
      ]);
      await Promise.all([
        appendEvent(database.service, s1, agentDelta({ 'user:plan': 'pro' })),
        appendEvent(database.service, s2, agentDelta({ 'user:plan': 'free' })),
      ]);
      const history = await database.service.getKeyHistory({ appName: app, scope: 'user', userId: 'u', key: 'plan' });
      expect(history.items.map((c) => c.sourceSessionId).sort()).toEqual(['a', 'b']);
      const final = await database.service.getUserState(app, 'u');
      expect(final[0]?.value).toBe(history.items[0]?.newValue);
    });
  });

  describe('history, provenance and time travel', () => {
    it('records each change with its cause and shows it as provenance', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's', state: { 'user:plan': 'free' } });
      await appendEvent(database.service, session, agentDelta({ 'user:plan': 'pro' }, { id: 'upgrade', author: 'billing' }));
      const history = await database.service.getKeyHistory({ appName: app, scope: 'user', userId: 'u', key: 'plan' });
      expect(history.items.map((c) => [c.oldValue, c.newValue, c.actor, c.eventId, c.eventSeq])).toEqual([
        ['free', 'pro', 'billing', 'upgrade', 1],
        [undefined, 'free', 'session:create', null, null],
      ]);
      const tiers = await database.service.getSessionTiers({ appName: app, userId: 'u', sessionId: 's' });
      expect(tiers?.user[0]?.lastChange).toMatchObject({ actor: 'billing', eventId: 'upgrade', eventSeq: 1, sourceSessionId: 's' });
    });

    it('names who appended an event in its changes when told, keeping the event author', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      const stored = await appendEvent(database.service, session, agentDelta({ 'user:plan': 'pro' }, { author: 'user' }), {
        actor: 'alice',
      });
      expect(stored.author).toBe('user');
      const [change] = (await database.service.getKeyHistory({ appName: app, scope: 'user', userId: 'u', key: 'plan' })).items;
      expect(change).toMatchObject({ actor: 'alice', eventSeq: 1 });
    });

    it('edits user and app state with actor and reason, never rewriting events', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's', state: { 'user:plan': 'free' } });
      await appendEvent(database.service, session, agentDelta({ 'user:plan': 'trial' }));
      const after = await database.service.editState({
        appName: app,
        userId: 'u',
        scope: 'user',
        changes: { plan: 'pro', added: [1], missing: undefined },
        actor: 'support@example.com',
        reason: 'ticket 42',
      });
      expect(after.map((e) => [e.key, e.value])).toEqual([
        ['added', [1]],
        ['plan', 'pro'],
      ]);
      await database.service.editState({
        appName: app,
        userId: 'u',
        scope: 'user',
        changes: { added: undefined },
        actor: 'ops',
        reason: 'cleanup',
      });
      const history = await database.service.getUserHistory(app, 'u');
      expect(history.items.map((c) => [c.key, c.oldValue, c.newValue, c.actor, c.reason])).toEqual([
        ['added', [1], undefined, 'ops', 'cleanup'],
        ['plan', 'trial', 'pro', 'support@example.com', 'ticket 42'],
        ['added', undefined, [1], 'support@example.com', 'ticket 42'],
        ['plan', 'free', 'trial', 'agent', null],
        ['plan', undefined, 'free', 'session:create', null],
      ]);
      const loaded = await database.service.getSession({ appName: app, userId: 'u', sessionId: 's' });
      expect(loaded?.events[0]?.actions.stateDelta).toEqual({ 'user:plan': 'trial' });
      expect(loaded?.state).toEqual({ 'user:plan': 'pro' });
      await expect(
        database.service.editState({ appName: app, scope: 'app', changes: { a: 1 }, actor: 'ops', reason: '  ' }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });

    it('gives the state as of any event', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's', state: { step: 0 } });
      await appendEvent(database.service, session, agentDelta({ step: 1, 'user:plan': 'free' }, { timestamp: 100 }));
      await appendEvent(database.service, session, agentDelta({ step: 2, 'app:mode': 'x' }, { timestamp: 200 }));
      await appendEvent(database.service, session, agentDelta({ step: 3, 'user:plan': 'pro' }, { timestamp: 300 }));
      const values = (entries: { key: string; value: unknown }[] | undefined) => entries?.map((e) => [e.key, e.value]);
      const asOf1 = await database.service.getStateAsOf({ appName: app, userId: 'u', sessionId: 's' }, 1);
      expect(values(asOf1?.session)).toEqual([['step', 1]]);
      expect(values(asOf1?.user)).toEqual([['plan', 'free']]);
      expect(values(asOf1?.app)).toEqual([]);
      const asOf3 = await database.service.getStateAsOf({ appName: app, userId: 'u', sessionId: 's' }, 3);
      expect(values(asOf3?.session)).toEqual([['step', 3]]);
      expect(values(asOf3?.user)).toEqual([['plan', 'pro']]);
      expect(values(asOf3?.app)).toEqual([['mode', 'x']]);
      expect(await database.service.getStateAsOf({ appName: app, userId: 'u', sessionId: 's' }, 99)).toBeNull();
    });
  });

  describe('dashboard reads', () => {
    it('lists apps with counts, users with counts, and searches sessions', async () => {
      const app = uniqueName('app');
      const a = await database.service.createSession({ appName: app, userId: 'alice', sessionId: 'chat-1', state: { topic: 'tea' } });
      await appendEvent(database.service, a, agentDelta({ 'user:plan': 'pro' }, { timestamp: 2_000_000_000 }));
      await database.service.createSession({ appName: app, userId: 'alice', sessionId: 'chat-2' });
      await database.service.createSession({ appName: app, userId: 'bob', sessionId: 'other', state: { topic: 'coffee' } });
      const apps = await database.service.listApps();
      expect(apps.find((x) => x.appName === app)).toEqual({
        appName: app,
        sessionCount: 3,
        userCount: 2,
        lastUpdateTime: 2_000_000_000,
      });
      const users = await database.service.listUsers(app);
      expect(users.items.map((u) => [u.userId, u.sessionCount])).toEqual([
        ['alice', 2],
        ['bob', 1],
      ]);
      const search = async (s: Omit<Parameters<typeof database.service.searchSessions>[0], 'appName'>) =>
        (await database.service.searchSessions({ appName: app, ...s })).items.map((x) => x.id);
      expect(await search({})).toEqual(['chat-1', 'other', 'chat-2']);
      expect(await search({ idContains: 'CHAT' })).toEqual(['chat-1', 'chat-2']);
      expect(await search({ idContains: '%' })).toEqual([]);
      expect(await search({ stateKey: 'topic' })).toEqual(['chat-1', 'other']);
      expect(await search({ stateKey: 'topic', stateValue: 'coffee' })).toEqual(['other']);
      expect(await search({ stateKey: 'user:plan' })).toEqual(['chat-1', 'chat-2']);
      expect(await search({ stateValue: 'pro' })).toEqual(['chat-1', 'chat-2']);
      expect((await database.service.searchSessions({ appName: app, limit: 1, offset: 1 })).total).toBe(3);
    });

    it('summarises one app, pages users past the end, and keeps searches within the app', async () => {
      const app = uniqueName('app');
      const other = uniqueName('app');
      expect(await database.service.getAppSummary(app)).toBeNull();
      await database.service.editState({
        appName: app,
        scope: 'user',
        userId: 'carol',
        changes: { plan: 'pro' },
        actor: 'ops',
        reason: 'r',
      });
      expect(await database.service.getAppSummary(app)).toEqual({ appName: app, sessionCount: 0, userCount: 0, lastUpdateTime: null });
      await database.service.createSession({
        appName: app,
        userId: 'alice',
        sessionId: 'a1',
        state: { topic: 'tea', 'user:plan': 'free' },
      });
      await database.service.createSession({ appName: app, userId: 'alice', sessionId: 'a2' });
      await database.service.createSession({
        appName: other,
        userId: 'alice',
        sessionId: 'o1',
        state: { topic: 'tea', 'user:plan': 'pro' },
      });
      const summary = await database.service.getAppSummary(app);
      expect(summary).toMatchObject({ appName: app, sessionCount: 2, userCount: 1 });
      expect(summary).toEqual((await database.service.listApps()).find((x) => x.appName === app));

      const users = await database.service.listUsers(app, { limit: 1 });
      expect(users.total).toBe(2);
      expect(users.items).toHaveLength(1);
      expect(await database.service.listUsers(app, { limit: 1, offset: 5 })).toEqual({ items: [], total: 2 });
      expect(await database.service.listUsers(app, { idContains: 'nobody' })).toEqual({ items: [], total: 0 });
      const userIds = async (order: 'recent' | 'sessions' | 'id') =>
        (await database.service.listUsers(app, { order })).items.map((u) => u.userId);
      expect(await userIds('id')).toEqual(['alice', 'carol']);
      expect(await userIds('sessions')).toEqual(['alice', 'carol']);
      const ids = async (order: 'recent' | 'oldest') =>
        (await database.service.searchSessions({ appName: app, order })).items.map((x) => x.id);
      expect(await ids('oldest')).toEqual((await ids('recent')).reverse());
      await expect(database.service.listUsers(app, { order: 'nope' as 'id' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });

      const search = async (s: Omit<Parameters<typeof database.service.searchSessions>[0], 'appName'>) =>
        (await database.service.searchSessions({ appName: app, ...s })).items.map((x) => x.id).sort();
      expect(await search({ stateKey: 'topic', stateValue: 'tea' })).toEqual(['a1']);
      expect(await search({ stateKey: 'user:plan', stateValue: 'pro' })).toEqual([]);
      expect(await search({ stateKey: 'user:plan', stateValue: 'free' })).toEqual(['a1', 'a2']);
      expect(await search({ stateValue: 'pro' })).toEqual([]);
      // Within one user (probed per session rather than through the key).
      expect(await search({ userId: 'alice', stateKey: 'topic' })).toEqual(['a1']);
      expect(await search({ userId: 'alice', stateKey: 'user:plan', stateValue: 'free' })).toEqual(['a1', 'a2']);
      expect(await search({ userId: 'alice', stateValue: 'tea' })).toEqual(['a1']);
    });

    it('pages events with filters', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's' });
      for (let i = 1; i <= 6; i += 1) {
        await appendEvent(
          database.service,
          session,
          agentDelta(i % 2 ? { 'user:odd': i } : { even: i }, { author: i % 3 ? 'model' : 'user' }),
        );
      }
      const ref = { appName: app, userId: 'u', sessionId: 's' };
      const seqs = async (q: Parameters<typeof database.service.listEvents>[1]) =>
        (await database.service.listEvents(ref, q)).items.map((e) => e.seq);
      expect(await seqs({ afterSeq: 4 })).toEqual([5, 6]);
      expect(await seqs({ newestFirst: true, limit: 2 })).toEqual([6, 5]);
      expect(await seqs({ author: 'user' })).toEqual([3, 6]);
      expect(await seqs({ touchedKey: 'user:odd' })).toEqual([1, 3, 5]);
      expect(await seqs({ touchedKey: 'even' })).toEqual([2, 4, 6]);
      await expect(database.service.listEvents({ ...ref, sessionId: 'missing' })).rejects.toMatchObject({ code: 'NOT_FOUND' });

      // A new session under a deleted one's id does not inherit its shared-tier history.
      await database.service.deleteSession(ref);
      const reused = await database.service.createSession(ref);
      await appendEvent(database.service, reused, agentDelta({ other: 1 }));
      expect(await seqs({ touchedKey: 'user:odd' })).toEqual([]);
    });
  });

  describe('5. instruction templates over stored state', () => {
    it('renders a stored session’s merged state', async () => {
      const app = uniqueName('app');
      const session = await database.service.createSession({
        appName: app,
        userId: 'u',
        sessionId: 's',
        state: { 'user:name': 'Ada', topic: 'proofs', 'app:flags': { beta: true, level: 2.5 } },
      });
      const loaded = await database.service.getSession({ appName: app, userId: 'u', sessionId: session.id });
      const result = renderTemplate('Hi {user:name}, {topic}. {app:flags} {missing?}{app:tone?}', loaded?.state ?? {});
      expect(result.text).toBe("Hi Ada, proofs. {'beta': True, 'level': 2.5} ");
      expect(result.error).toBeNull();
      expect(renderTemplate('{nope}', loaded?.state ?? {}).error).toBe('Context variable not found: `nope`.');
    });
  });
});
