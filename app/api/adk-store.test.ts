// The read API and the write doors over an agent's adk-python store (served
// as STATEHOUSE_STORE would serve it): the same shapes as over Statehouse's
// own store, nothing written by any read, ADK-way writes, and 409 READ_ONLY
// from a store opened read-only.
import { afterEach, describe, expect, it } from 'vitest';
import { setServicesForTests } from '@/lib/services';
import { call, detailOf } from '@/lib/testing/http';
import { APP, dumpAgentDatabase, type AdkFixtureKind } from '@/lib/testing/adk-fixtures';
import { openAdkFixture } from '@/lib/testing/adk-fixtures/stores';
import * as apps from './apps/route';
import * as appSessions from './apps/[app]/sessions/route';
import * as appState from './apps/[app]/state/route';
import * as users from './apps/[app]/users/route';
import * as userHistory from './apps/[app]/users/[user]/history/route';
import * as sessionRoute from './apps/[app]/users/[user]/sessions/[id]/route';
import * as sessionEvents from './apps/[app]/users/[user]/sessions/[id]/events/route';
import * as sessionState from './apps/[app]/users/[user]/sessions/[id]/state/route';
import * as timeline from './apps/[app]/users/[user]/sessions/[id]/timeline/route';

const kinds: AdkFixtureKind[] = [
  { family: 'py-sqlite', wal: true },
  { family: 'py-db', dialect: 'sqlite', clock: 'local', localOffsetHours: 2 },
];
const params = { app: APP, user: 'alice', id: 'trip-paris' };

afterEach(() => setServicesForTests({}));

describe.each(kinds.map((kind) => [kind.family, kind] as const))('the API over an %s store', (_family, kind) => {
  it('answers every read with the usual shapes and writes nothing', async () => {
    const fixture = await openAdkFixture(kind);
    try {
      setServicesForTests({ store: fixture.store, info: fixture.store.info });
      const before = await dumpAgentDatabase(fixture.location);
      const list = await call(apps.GET, 'GET');
      expect(list.json).toMatchObject({ items: [{ appName: APP, sessionCount: 33, userCount: 3 }] });
      const found = await call(appSessions.GET, 'GET', { params: { app: APP }, query: 'q=trip&limit=5' });
      expect((found.json as { items: { id: string }[] }).items.map((item) => item.id).sort()).toEqual(['trip-paris', 'trip-rome']);
      expect((await call(users.GET, 'GET', { params: { app: APP } })).json).toMatchObject({ total: 3 });
      const session = await call(sessionRoute.GET, 'GET', { params });
      expect(session.status).toBe(200);
      expect(session.json).toMatchObject({
        id: 'trip-paris',
        appName: APP,
        userId: 'alice',
        state: { destination: 'Lyon', 'user:home_city': 'Munich' },
      });
      const events = await call(sessionEvents.GET, 'GET', { params, query: 'limit=2' });
      expect(events.json).toMatchObject({ total: 3, items: [{ seq: 1 }, { seq: 2, event: { id: 'e2', invocationId: 'inv-e2' } }] });
      const state = await call(sessionState.GET, 'GET', { params, query: 'asOf=2' });
      expect(state.json).toMatchObject({ session: [{ key: 'destination', value: 'Paris' }], eventCount: 3 });
      const items = await call(timeline.GET, 'GET', { params, query: 'limit=10' });
      expect((items.json as { items: { changes: unknown[] }[] }).items[2]?.changes).toHaveLength(3);
      expect((await call(appState.GET, 'GET', { params: { app: APP } })).json).toMatchObject({ entries: [{ key: 'bookings', value: 3 }] });
      expect((await call(userHistory.GET, 'GET', { params: { app: APP, user: 'alice' } })).status).toBe(200);
      expect(await dumpAgentDatabase(fixture.location)).toEqual(before);
    } finally {
      await fixture.close();
    }
  });

  it('appends through the events route with If-Match, refusing a stale revision with ADK’s message', async () => {
    const fixture = await openAdkFixture(kind);
    try {
      setServicesForTests({ store: fixture.store, info: fixture.store.info });
      const state = (await call(sessionState.GET, 'GET', { params })).json as { revision: number };
      const body = { author: 'support', invocationId: 'api', actions: { stateDelta: { nights: 5 } } };
      const appended = await call(sessionEvents.POST, 'POST', { params, body, headers: { 'if-match': `"${state.revision}"` } });
      expect(appended.status, JSON.stringify(appended.json)).toBeLessThan(300);
      const stale = await call(sessionEvents.POST, 'POST', { params, body, headers: { 'if-match': `"${state.revision}"` } });
      expect(stale.status).toBe(409);
      expect(detailOf(stale)).toMatch(/modified in storage/);
      expect((await fixture.store.getSession({ appName: APP, userId: 'alice', sessionId: 'trip-paris' }))?.state.nights).toBe(5);
    } finally {
      await fixture.close();
    }
  });
});

describe('a store opened read-only', () => {
  it('answers writes with 409 and says why', async () => {
    const fixture = await openAdkFixture({ family: 'py-db', dialect: 'sqlite', clock: 'utc', schemaVersion: '2' });
    try {
      setServicesForTests({ store: fixture.store, info: fixture.store.info });
      const refused = await call(sessionEvents.POST, 'POST', { params, body: { author: 'support' } });
      expect(refused.status).toBe(409);
      expect(detailOf(refused)).toMatch(/read-only.*schema_version "2"/);
      const edit = await call(appState.PATCH, 'PATCH', { params: { app: APP }, body: { set: { a: 1 }, reason: 'because' } });
      expect(edit.status, JSON.stringify(edit.json)).toBe(409);
    } finally {
      await fixture.close();
    }
  });
});

describe('Statehouse’s own store given an ADK store’s revision', () => {
  it('treats a revision beyond its 32-bit column as stale, not as an error', async () => {
    const { createTestDatabase, testProviders } = await import('@/lib/testing/databases');
    for (const provider of await testProviders()) {
      const database = await createTestDatabase(provider);
      try {
        const ref = { appName: 'a', userId: 'u', sessionId: 's' };
        await database.service.createSession(ref);
        await expect(database.service.append(ref, { author: 'x' }, { expectedRevision: 1_767_225_603_750_000 })).rejects.toMatchObject({
          code: 'STALE_SESSION',
        });
      } finally {
        await database.drop();
      }
    }
  });
});
