// What an adk-js agent may rely on from a BaseSessionService, as adk-js's own
// session-service suites check it for InMemorySessionService and
// DatabaseSessionService (google/adk-js core/test/sessions/
// in_memory_session_service_test.ts and database_session_service_test.ts),
// written afresh for Statehouse's adk-js services: the drop-in over a database
// and HttpSessionService over the API. Where Statehouse answers differently on
// purpose, the test says so and checks Statehouse's answer (docs/api.md,
// "Where the adk-js services differ").
import { createEvent, createEventActions, State, type BaseSessionService, type Event, type Session } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { uniqueName } from './factories';

export interface AdkJsServiceUnderTest {
  /** The service; the suite names every app uniquely, so one service may serve the whole suite. */
  service(): BaseSessionService;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

/** `n` sessions s1..sn of one user, each with one event at i seconds (so asc order is s1..sn). */
async function sessionsUpdatedInOrder(service: BaseSessionService, appName: string, userId: string, n: number): Promise<void> {
  for (let i = 1; i <= n; i++) {
    const session = await service.createSession({ appName, userId, sessionId: `s${i}` });
    await service.appendEvent({ session, event: createEvent({ author: 'agent', timestamp: i * 1000 }) });
  }
}

const delta = (stateDelta: Record<string, unknown>, timestamp = Date.now()): Event =>
  createEvent({ author: 'agent', timestamp, actions: createEventActions({ stateDelta }) });

export function describeAdkJsSessionContract(name: string, under: AdkJsServiceUnderTest): void {
  const svc = () => under.service();

  describe(`${name}: adk-js session-service contract`, () => {
    describe('createSession', () => {
      it('returns the new session: a generated id, the names, the state, no events, an update time', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u', state: { topic: 'tea' } });
        expect(session.id).toMatch(/.+/);
        expect(session).toMatchObject({ appName, userId: 'u', state: { topic: 'tea' }, events: [] });
        expect(session.lastUpdateTime).toBeGreaterThan(0);
      });

      it('keeps the id it is given', async () => {
        const session = await svc().createSession({ appName: uniqueName('app'), userId: 'u', sessionId: 'chosen-id' });
        expect(session.id).toBe('chosen-id');
      });

      it('gives a new session the app: and user: state earlier sessions wrote', async () => {
        const appName = uniqueName('app');
        const first = await svc().createSession({ appName, userId: 'u' });
        await svc().appendEvent({ session: first, event: delta({ 'app:theme': 'dark', 'user:name': 'Ada' }) });
        const second = await svc().createSession({ appName, userId: 'u' });
        expect(second.state).toEqual({ 'app:theme': 'dark', 'user:name': 'Ada' });
      });

      it('drops temp: keys of the initial state', async () => {
        const session = await svc().createSession({ appName: uniqueName('app'), userId: 'u', state: { kept: 1, 'temp:scratch': 2 } });
        expect(session.state).toEqual({ kept: 1 });
      });

      it('refuses an id the user already has, in adk-js DatabaseSessionService words', async () => {
        const appName = uniqueName('app');
        await svc().createSession({ appName, userId: 'u', sessionId: 'twice' });
        const error = await rejection(svc().createSession({ appName, userId: 'u', sessionId: 'twice' }));
        expect(error.message).toBe('Session with id twice already exists.');
      });
    });

    describe('getSession', () => {
      it('answers undefined for a session that does not exist', async () => {
        expect(await svc().getSession({ appName: uniqueName('app'), userId: 'u', sessionId: 'absent' })).toBeUndefined();
      });

      it('returns a stored session with its state', async () => {
        const appName = uniqueName('app');
        const created = await svc().createSession({ appName, userId: 'u', state: { k: 'v' } });
        const loaded = await svc().getSession({ appName, userId: 'u', sessionId: created.id });
        expect(loaded?.id).toBe(created.id);
        expect(loaded?.state).toEqual({ k: 'v' });
      });

      it('keeps the last numRecentEvents events', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u' });
        for (let i = 1; i <= 5; i++) await svc().appendEvent({ session, event: createEvent({ author: 'agent', timestamp: i * 1000 }) });
        const loaded = await svc().getSession({ appName, userId: 'u', sessionId: session.id, config: { numRecentEvents: 2 } });
        expect(loaded?.events.map((event) => event.timestamp)).toEqual([4000, 5000]);
      });

      it('keeps the events after afterTimestamp (milliseconds)', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u' });
        for (let i = 1; i <= 4; i++) await svc().appendEvent({ session, event: createEvent({ author: 'agent', timestamp: i * 1000 }) });
        const loaded = await svc().getSession({ appName, userId: 'u', sessionId: session.id, config: { afterTimestamp: 2500 } });
        expect(loaded?.events.map((event) => event.timestamp)).toEqual([3000, 4000]);
      });

      it('counts an event exactly at afterTimestamp as after it (Statehouse: inclusive, as adk-python)', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u' });
        const now = Date.now();
        const events = [now - 1000, now, now + 1000].map((timestamp) => createEvent({ author: 'agent', timestamp }));
        for (const event of events) await svc().appendEvent({ session, event });
        const recent = await svc().getSession({ appName, userId: 'u', sessionId: session.id, config: { numRecentEvents: 2 } });
        expect(recent?.events.map((event) => event.id)).toEqual([events[1]?.id, events[2]?.id]);
        const at = await svc().getSession({ appName, userId: 'u', sessionId: session.id, config: { afterTimestamp: now } });
        expect(at?.events.map((event) => event.id)).toEqual([events[1]?.id, events[2]?.id]);
        const past = await svc().getSession({ appName, userId: 'u', sessionId: session.id, config: { afterTimestamp: now + 1 } });
        expect(past?.events.map((event) => event.id)).toEqual([events[2]?.id]);
      });

      it('keeps sub-second timestamps, their order, and filters between them', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u' });
        const second = Math.floor(Date.now() / 1000) * 1000;
        const stamps = [second + 200, second + 400, second + 600];
        for (const [i, timestamp] of stamps.entries()) {
          await svc().appendEvent({ session, event: createEvent({ author: 'agent', invocationId: `inv-${i}`, timestamp }) });
        }
        const loaded = await svc().getSession({ appName, userId: 'u', sessionId: session.id });
        expect(loaded?.events.map((event) => event.timestamp)).toEqual(stamps);
        const later = await svc().getSession({ appName, userId: 'u', sessionId: session.id, config: { afterTimestamp: second + 300 } });
        expect(later?.events.map((event) => event.timestamp)).toEqual(stamps.slice(1));
      });

      it('merges the app state as it is now', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u' });
        await svc().appendEvent({ session, event: delta({ 'app:flag': 'on' }) });
        const loaded = await svc().getSession({ appName, userId: 'u', sessionId: session.id });
        expect(loaded?.state).toEqual({ 'app:flag': 'on' });
      });
    });

    describe('listSessions', () => {
      it('lists nothing for an unknown user, with empty page metadata', async () => {
        expect(await svc().listSessions({ appName: uniqueName('app'), userId: 'u' })).toEqual({
          sessions: [],
          page: 1,
          limit: 0,
          totalItems: 0,
          totalPages: 0,
        });
        expect(await svc().listSessions({ appName: uniqueName('app'), userId: 'u', limit: 10 })).toEqual({
          sessions: [],
          page: 1,
          limit: 10,
          totalItems: 0,
          totalPages: 0,
        });
      });

      it('lists every session of the user, without events, as one page when no limit is given', async () => {
        const appName = uniqueName('app');
        for (const sessionId of ['s1', 's2']) {
          const session = await svc().createSession({ appName, userId: 'u', sessionId });
          await svc().appendEvent({ session, event: createEvent({ author: 'agent' }) });
        }
        const listed = await svc().listSessions({ appName, userId: 'u' });
        expect(listed.sessions.map((session) => session.id).sort()).toEqual(['s1', 's2']);
        expect(listed.sessions.map((session) => session.events)).toEqual([[], []]);
        expect(listed).toMatchObject({ page: 1, limit: 2, totalItems: 2, totalPages: 1 });
      });

      it('lists the sessions of that app and user only', async () => {
        const [app1, app2] = [uniqueName('app'), uniqueName('app')];
        await svc().createSession({ appName: app1, userId: 'u1', sessionId: 's1' });
        await svc().createSession({ appName: app1, userId: 'u2', sessionId: 's2' });
        await svc().createSession({ appName: app2, userId: 'u1', sessionId: 's3' });
        const listed = await svc().listSessions({ appName: app1, userId: 'u1' });
        expect(listed.sessions.map((session) => session.id)).toEqual(['s1']);
      });

      it('orders by last update, oldest or newest first', async () => {
        const appName = uniqueName('app');
        const sessions: Record<string, Session> = {};
        for (const id of ['s1', 's2', 's3']) sessions[id] = await svc().createSession({ appName, userId: 'u', sessionId: id });
        for (const [id, timestamp] of [
          ['s1', 3000],
          ['s2', 1000],
          ['s3', 2000],
        ] as const) {
          await svc().appendEvent({ session: sessions[id] as Session, event: createEvent({ author: 'agent', timestamp }) });
        }
        const ids = async (order: 'asc' | 'desc') => (await svc().listSessions({ appName, userId: 'u', order })).sessions.map((s) => s.id);
        expect(await ids('asc')).toEqual(['s2', 's3', 's1']);
        expect(await ids('desc')).toEqual(['s1', 's3', 's2']);
      });

      it('orders sessions updated at the same time by creation (Statehouse; adk-js: by id)', async () => {
        const appName = uniqueName('app');
        const first = await svc().createSession({ appName, userId: 'u', sessionId: 'b-first' });
        const second = await svc().createSession({ appName, userId: 'u', sessionId: 'a-second' });
        await svc().appendEvent({ session: first, event: createEvent({ author: 'agent', timestamp: 1000 }) });
        await svc().appendEvent({ session: second, event: createEvent({ author: 'agent', timestamp: 1000 }) });
        const asc = await svc().listSessions({ appName, userId: 'u', order: 'asc' });
        expect(asc.sessions.map((s) => s.id)).toEqual(['b-first', 'a-second']);
        const desc = await svc().listSessions({ appName, userId: 'u', order: 'desc' });
        expect(desc.sessions.map((s) => s.id)).toEqual(['a-second', 'b-first']);
      });

      it('gives a page of limit sessions with the totals', async () => {
        const appName = uniqueName('app');
        await sessionsUpdatedInOrder(svc(), appName, 'u', 5);
        const listed = await svc().listSessions({ appName, userId: 'u', limit: 3, order: 'asc' });
        expect(listed.sessions.map((s) => s.id)).toEqual(['s1', 's2', 's3']);
        expect(listed).toMatchObject({ page: 1, limit: 3, totalItems: 5, totalPages: 2 });
      });

      it('skips offset sessions', async () => {
        const appName = uniqueName('app');
        await sessionsUpdatedInOrder(svc(), appName, 'u', 4);
        const listed = await svc().listSessions({ appName, userId: 'u', limit: 2, offset: 1, order: 'asc' });
        expect(listed.sessions.map((s) => s.id)).toEqual(['s2', 's3']);
        expect(listed.page).toBe(1);
        const third = await svc().listSessions({ appName, userId: 'u', limit: 2, offset: 2, order: 'asc' });
        expect(third.sessions.map((s) => s.id)).toEqual(['s3', 's4']);
        expect(third.page).toBe(2);
      });

      it('serves page n of limit, page winning over offset', async () => {
        const appName = uniqueName('app');
        await sessionsUpdatedInOrder(svc(), appName, 'u', 5);
        const paged = await svc().listSessions({ appName, userId: 'u', page: 2, limit: 2, offset: 0, order: 'asc' });
        expect(paged.sessions.map((s) => s.id)).toEqual(['s3', 's4']);
        expect(paged).toMatchObject({ page: 2, limit: 2, totalItems: 5, totalPages: 3 });
      });

      it('answers an offset past the end and a limit of 0 with no sessions and the right totals', async () => {
        const appName = uniqueName('app');
        await svc().createSession({ appName, userId: 'u', sessionId: 's1' });
        const past = await svc().listSessions({ appName, userId: 'u', limit: 2, offset: 10 });
        expect(past).toMatchObject({ sessions: [], totalItems: 1, totalPages: 1 });
        const none = await svc().listSessions({ appName, userId: 'u', limit: 0 });
        expect(none).toMatchObject({ sessions: [], totalItems: 1, totalPages: 0 });
      });

      it('sorts without a limit and still answers one page', async () => {
        const appName = uniqueName('app');
        const s1 = await svc().createSession({ appName, userId: 'u', sessionId: 's1' });
        const s2 = await svc().createSession({ appName, userId: 'u', sessionId: 's2' });
        await svc().appendEvent({ session: s1, event: createEvent({ author: 'agent', timestamp: 2000 }) });
        await svc().appendEvent({ session: s2, event: createEvent({ author: 'agent', timestamp: 1000 }) });
        const listed = await svc().listSessions({ appName, userId: 'u', order: 'desc' });
        expect(listed.sessions.map((s) => s.id)).toEqual(['s1', 's2']);
        expect(listed).toMatchObject({ page: 1, limit: 2, totalItems: 2, totalPages: 1 });
      });

      it('lists each session with its merged state (adk-js InMemorySessionService: empty state)', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u', state: { 'app:a': 1, 'user:b': 2, c: 3 } });
        const listed = await svc().listSessions({ appName, userId: 'u' });
        expect(listed.sessions).toEqual([expect.objectContaining({ id: session.id, state: { 'app:a': 1, 'user:b': 2, c: 3 } })]);
      });
    });

    describe('deleteSession', () => {
      it('removes the session', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u' });
        await svc().deleteSession({ appName, userId: 'u', sessionId: session.id });
        expect(await svc().getSession({ appName, userId: 'u', sessionId: session.id })).toBeUndefined();
      });

      it('does nothing for a session that does not exist', async () => {
        await expect(svc().deleteSession({ appName: uniqueName('app'), userId: 'u', sessionId: 'absent' })).resolves.toBeUndefined();
      });
    });

    describe('appendEvent', () => {
      it('stores the event as given and moves lastUpdateTime to its timestamp', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u' });
        const timestamp = Date.now() + 1000;
        const event = createEvent({ author: 'agent', timestamp, content: { role: 'model', parts: [{ text: 'hi' }] } });
        expect(await svc().appendEvent({ session, event })).toBe(event);
        expect(session.lastUpdateTime).toBe(timestamp);
        const loaded = await svc().getSession({ appName, userId: 'u', sessionId: session.id });
        expect(loaded?.events).toEqual([event]);
        expect(loaded?.lastUpdateTime).toBe(timestamp);
      });

      it('stores an event with no author (adk-js types author as optional) and gives it back without one', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u' });
        const event = createEvent({ timestamp: Date.now(), actions: createEventActions({ stateDelta: { step: 1 } }) });
        await svc().appendEvent({ session, event });
        const loaded = await svc().getSession({ appName, userId: 'u', sessionId: session.id });
        expect(loaded?.events).toEqual([event]);
        expect(loaded?.events[0]?.author).toBeUndefined();
        expect(loaded?.state).toEqual({ step: 1 });
      });

      it('applies the delta to the session object and to storage, app: and user: keys included', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u', sessionId: 's1', state: { count: 0 } });
        await svc().appendEvent({ session, event: delta({ count: 1, 'app:global': 'value' }) });
        expect(session.state).toMatchObject({ count: 1, 'app:global': 'value' });
        const loaded = await svc().getSession({ appName, userId: 'u', sessionId: 's1' });
        expect(loaded?.state).toEqual({ count: 1, 'app:global': 'value' });
        expect(loaded?.events).toHaveLength(1);
      });

      it('shares app: keys with every user and user: keys with that user only', async () => {
        const appName = uniqueName('app');
        await svc().createSession({ appName, userId: 'u1', sessionId: 's1', state: { 'app:mode': 'dark', 'user:pref': 'A' } });
        const sibling = await svc().createSession({ appName, userId: 'u1', sessionId: 's2' });
        const other = await svc().createSession({ appName, userId: 'u2', sessionId: 's3' });
        expect(sibling.state).toEqual({ 'app:mode': 'dark', 'user:pref': 'A' });
        expect(other.state).toEqual({ 'app:mode': 'dark' });
        await svc().appendEvent({ session: other, event: delta({ 'app:mode': 'light' }) });
        await svc().appendEvent({ session: sibling, event: delta({ 'user:pref': 'B' }) });
        const first = await svc().getSession({ appName, userId: 'u1', sessionId: 's1' });
        expect(first?.state).toEqual({ 'app:mode': 'light', 'user:pref': 'B' });
        const third = await svc().getSession({ appName, userId: 'u2', sessionId: 's3' });
        expect(third?.state).toEqual({ 'app:mode': 'light' });
      });

      it('never stores temp: keys of a delta', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u' });
        await svc().appendEvent({ session, event: delta({ keep: 'me', 'temp:hide': 'me' }) });
        const loaded = await svc().getSession({ appName, userId: 'u', sessionId: session.id });
        expect(loaded?.events[0]?.actions.stateDelta).toEqual({ keep: 'me' });
        expect(loaded?.state).toEqual({ keep: 'me' });
      });

      it('neither stores nor applies a partial event', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u' });
        const event = createEvent({ author: 'agent', partial: true, actions: createEventActions({ stateDelta: { k: 1 } }) });
        expect(await svc().appendEvent({ session, event })).toBe(event);
        const loaded = await svc().getSession({ appName, userId: 'u', sessionId: session.id });
        expect(loaded?.events).toEqual([]);
        expect(loaded?.state).toEqual({});
      });

      it('refuses an append to a session that is not stored, in adk-js DatabaseSessionService words', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u', sessionId: 'real' });
        session.id = 'missing';
        const error = await rejection(svc().appendEvent({ session, event: createEvent({ author: 'agent' }) }));
        expect(error.message).toBe('Session missing not found for appendEvent');
        const handBuilt: Session = { id: 'fake', appName, userId: 'u', state: {}, events: [], lastUpdateTime: 0 };
        const again = await rejection(svc().appendEvent({ session: handBuilt, event: createEvent({ author: 'agent' }) }));
        expect(again.message).toBe('Session fake not found for appendEvent');
      });

      it('appends through a session object built by hand when storage has not changed since its lastUpdateTime', async () => {
        const appName = uniqueName('app');
        const created = await svc().createSession({ appName, userId: 'u', sessionId: 's1' });
        const handBuilt: Session = { ...created, state: { ...created.state }, events: [] };
        await svc().appendEvent({ session: handBuilt, event: delta({ k: 'v' }) });
        const loaded = await svc().getSession({ appName, userId: 'u', sessionId: 's1' });
        expect(loaded?.state).toEqual({ k: 'v' });
      });

      it('refuses an append through an object loaded before another append (Statehouse: stale; adk-js reloads or ignores)', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u', sessionId: 's1' });
        const twin = await svc().getSession({ appName, userId: 'u', sessionId: 's1' });
        await svc().appendEvent({ session, event: delta({ k: 1 }) });
        const error = await rejection(svc().appendEvent({ session: twin as Session, event: delta({ k: 2 }) }));
        expect(error.message).toMatch(/^The session has been modified in storage since it was loaded/);
        const loaded = await svc().getSession({ appName, userId: 'u', sessionId: 's1' });
        expect(loaded?.state).toEqual({ k: 1 });
      });
    });

    describe('prototype pollution', () => {
      const planted = () => ['polluted', 'httpOptions', 'pwned', 'isAdmin'].filter((key) => key in {});

      it('stores an app and a user named __proto__ without touching Object.prototype', async () => {
        const session = await svc().createSession({ appName: '__proto__', userId: uniqueName('user'), sessionId: 'poc', state: {} });
        await svc().appendEvent({ session, event: delta({ 'app:pwned': 'x' }) });
        const user = await svc().createSession({ appName: uniqueName('app'), userId: '__proto__', sessionId: 's1' });
        await svc().appendEvent({ session: user, event: delta({ 'user:httpOptions': { baseUrl: 'https://evil.test' } }) });
        expect(planted()).toEqual([]);
        const loaded = await svc().getSession({ appName: '__proto__', userId: session.userId, sessionId: 'poc' });
        expect(loaded?.id).toBe('poc');
        await svc().deleteSession({ appName: '__proto__', userId: session.userId, sessionId: 'poc' });
      });

      it('keeps a user:__proto__ key as an ordinary key that sibling sessions see', async () => {
        const appName = uniqueName('app');
        const session = await svc().createSession({ appName, userId: 'u', sessionId: 's1' });
        await svc().appendEvent({ session, event: delta(JSON.parse('{"user:__proto__": {"baseUrl": "https://evil.test"}}')) });
        const sibling = await svc().createSession({ appName, userId: 'u', sessionId: 's2' });
        expect(Object.hasOwn(sibling.state, 'user:__proto__')).toBe(true);
        expect(sibling.state['user:__proto__']).toEqual({ baseUrl: 'https://evil.test' });
      });

      it('keeps a __proto__ key of the initial state or a delta as an own key, never as the state’s prototype', async () => {
        const appName = uniqueName('app');
        const created = await svc().createSession({
          appName,
          userId: 'u',
          sessionId: 's1',
          state: JSON.parse('{"__proto__": {"isAdmin": true}}'),
        });
        expect(new State(created.state).get('isAdmin')).toBeUndefined();
        expect(Object.hasOwn(created.state, '__proto__')).toBe(true);
        expect(created.state['__proto__']).toEqual({ isAdmin: true });
        const other = await svc().createSession({ appName, userId: 'u', sessionId: 's2' });
        await svc().appendEvent({ session: other, event: delta(JSON.parse('{"__proto__": {"isAdmin": "yes"}}')) });
        const loaded = await svc().getSession({ appName, userId: 'u', sessionId: 's2' });
        expect(new State(loaded?.state ?? {}).get('isAdmin')).toBeUndefined();
        expect(loaded?.state['__proto__']).toEqual({ isAdmin: 'yes' });
        expect(planted()).toEqual([]);
      });

      it('lists no phantom sessions for names that were never created', async () => {
        const userId = uniqueName('user');
        await svc().createSession({ appName: '__proto__', userId, sessionId: 'poc' });
        expect((await svc().listSessions({ appName: userId, userId })).sessions).toEqual([]);
        const appName = uniqueName('app');
        await svc().createSession({ appName, userId: 'alice', sessionId: 's1' });
        expect((await svc().listSessions({ appName, userId })).sessions).toEqual([]);
        await svc().deleteSession({ appName: '__proto__', userId, sessionId: 'poc' });
      });
    });
  });
}
