// Rows no ADK would write, through the HTTP API over an agent's store: every
// route outside the broken session answers 200 with the usual values; the
// broken session answers 200 with the row marked unreadable, or 422 with a
// detail saying which column holds what (never a 500 or a 503).
import { describe, expect, it } from 'vitest';
import { call, detailOf } from '@/lib/testing/http';
import { APP, fixtureLabel, type AdkFixtureKind } from '@/lib/testing/adk-fixtures';
import { HOSTILE_USER, writeHostileRows } from '@/lib/testing/adk-fixtures/hostile';
import { BROKEN_APP, BROKEN_USER, writeHostileTiers } from '@/lib/testing/adk-fixtures/hostile-tiers';
import { mysqlAvailable } from '@/lib/testing/mysql';
import * as listApps from './list-apps/route';
import * as apps from './apps/route';
import * as appExport from './apps/[app]/export/route';
import * as appSessions from './apps/[app]/sessions/route';
import * as appState from './apps/[app]/state/route';
import * as users from './apps/[app]/users/route';
import * as userState from './apps/[app]/users/[user]/state/route';
import * as userHistory from './apps/[app]/users/[user]/history/route';
import * as userSessions from './apps/[app]/users/[user]/sessions/route';
import * as sessionRoute from './apps/[app]/users/[user]/sessions/[id]/route';
import * as sessionEvents from './apps/[app]/users/[user]/sessions/[id]/events/route';
import * as sessionState from './apps/[app]/users/[user]/sessions/[id]/state/route';
import * as timeline from './apps/[app]/users/[user]/sessions/[id]/timeline/route';
import { useSpoiledAdkStore } from '@/lib/testing/adk-fixtures/spoiled-store';

const kinds: AdkFixtureKind[] = [
  { family: 'py-sqlite', wal: true },
  { family: 'py-db', dialect: 'sqlite', clock: 'local', localOffsetHours: 2 },
  { family: 'adk-js', dialect: 'sqlite' },
  { family: 'adk-rust', dialect: 'sqlite' },
  { family: 'adk-go', dialect: 'sqlite' },
];
if (await mysqlAvailable()) kinds.push({ family: 'py-db', dialect: 'mysql', clock: 'local', localOffsetHours: 2 });

describe.each(kinds.map((kind) => [fixtureLabel(kind), kind] as const))('the API over hostile rows in %s', (_label, kind) => {
  const fixture = useSpoiledAdkStore(kind, (written) => writeHostileRows(written, kind, APP), { serve: true });

  it('answers every list, app and user route with 200', async () => {
    expect((await call(listApps.GET, 'GET')).json).toEqual([APP]);
    expect((await call(apps.GET, 'GET')).json).toMatchObject({
      items: [{ appName: APP, sessionCount: 33 + fixture.spoiled.length, userCount: 4 }],
    });
    const sessions = await call(appSessions.GET, 'GET', { params: { app: APP }, query: 'limit=100' });
    expect(sessions.status).toBe(200);
    expect((sessions.json as { total: number }).total).toBe(33 + fixture.spoiled.length);
    expect((await call(users.GET, 'GET', { params: { app: APP } })).json).toMatchObject({ total: 4 });
    expect((await call(appState.GET, 'GET', { params: { app: APP } })).json).toMatchObject({ entries: [{ key: 'bookings', value: 3 }] });
    for (const userId of ['alice', HOSTILE_USER]) {
      const params = { app: APP, user: userId };
      expect((await call(userState.GET, 'GET', { params })).status, userId).toBe(200);
      expect((await call(userHistory.GET, 'GET', { params })).status, userId).toBe(200);
      expect((await call(userSessions.GET, 'GET', { params })).status, userId).toBe(200);
    }
    const exported = await call(appExport.GET, 'GET', { params: { app: APP } });
    expect(exported.status).toBe(200);
    // Every readable session is exported; one whose own row cannot be read is left out.
    const lines = exported.text.trim().split('\n');
    const unassemblable = fixture.spoiled.filter((hostile) => hostile.row === 'session').length;
    expect(lines.length).toBeGreaterThanOrEqual(33 + fixture.spoiled.length - unassemblable);
  });

  it('answers the other sessions exactly', async () => {
    const params = { app: APP, user: 'alice', id: 'trip-paris' };
    const session = await call(sessionRoute.GET, 'GET', { params });
    expect(session.json).toMatchObject({ id: 'trip-paris', state: { destination: 'Lyon' } });
    expect((await call(sessionEvents.GET, 'GET', { params })).json).toMatchObject({ total: 3 });
  });

  it('answers each hostile session with the row marked, or 422 and why', async () => {
    for (const hostile of fixture.spoiled) {
      const params = { app: APP, user: HOSTILE_USER, id: hostile.name };
      for (const [name, handler, query] of [
        ['session', sessionRoute.GET, ''],
        ['events', sessionEvents.GET, ''],
        ['state', sessionState.GET, ''],
        ['state as of 1', sessionState.GET, 'asOf=1'],
        ['timeline', timeline.GET, ''],
      ] as const) {
        const answer = await call(handler, 'GET', { params, query });
        const label = `${hostile.name} ${name}: ${answer.text.slice(0, 300)}`;
        expect([200, 422], label).toContain(answer.status);
        if (answer.status === 422) {
          expect(hostile.row, label).toBe('session');
          expect(detailOf(answer), label).toMatch(/cannot be read: its \w+ holds/);
        }
      }
      const session = await call(sessionRoute.GET, 'GET', { params });
      if (session.status === 200 && hostile.shows === undefined && hostile.row !== 'session') {
        expect(session.text, hostile.name).toContain('"unreadable"');
      }
    }
  });
});

describe.each(kinds.map((kind) => [fixtureLabel(kind), kind] as const))(
  'the API over a broken app or user tier row in %s',
  (_label, kind) => {
    useSpoiledAdkStore(kind, (written) => writeHostileTiers(written, kind, APP), { serve: true });

    it('answers every other app and user with 200 and their values', async () => {
      expect(((await call(listApps.GET, 'GET')).json as string[]).sort()).toEqual([APP, BROKEN_APP].sort());
      expect((await call(apps.GET, 'GET')).status).toBe(200);
      expect((await call(appState.GET, 'GET', { params: { app: APP } })).json).toMatchObject({ entries: [{ key: 'bookings', value: 3 }] });
      const alice = await call(userState.GET, 'GET', { params: { app: APP, user: 'alice' } });
      expect(alice.json).toMatchObject({ entries: [{ key: 'home_city', value: 'Munich' }] });
      const session = await call(sessionRoute.GET, 'GET', { params: { app: APP, user: 'alice', id: 'trip-paris' } });
      expect(session.json).toMatchObject({ state: { 'app:bookings': 3, 'user:home_city': 'Munich' } });
      for (const app of [APP, BROKEN_APP]) {
        expect((await call(users.GET, 'GET', { params: { app } })).status, app).toBe(200);
        expect((await call(appSessions.GET, 'GET', { params: { app } })).status, app).toBe(200);
        expect((await call(appExport.GET, 'GET', { params: { app } })).status, app).toBe(200);
      }
    });

    it('answers the broken tier, and the state of sessions under it, 422 and why; their lists, events and history 200', async () => {
      for (const answer of [
        await call(appState.GET, 'GET', { params: { app: BROKEN_APP } }),
        await call(userState.GET, 'GET', { params: { app: APP, user: BROKEN_USER } }),
      ]) {
        expect(answer.status, answer.text).toBe(422);
        expect(detailOf(answer)).toMatch(/state cannot be read: its state holds/);
      }
      for (const params of [
        { app: BROKEN_APP, user: 'alice', id: 'trip-paris' },
        { app: APP, user: BROKEN_USER, id: 'trip-paris' },
      ]) {
        const label = `${params.app}/${params.user}`;
        for (const [handler, query] of [
          [sessionRoute.GET, ''],
          [sessionState.GET, ''],
          [sessionState.GET, 'asOf=1'],
        ] as const) {
          const answer = await call(handler, 'GET', { params, query });
          expect(answer.status, `${label} ${query}: ${answer.text}`).toBe(422);
          expect(detailOf(answer), label).toMatch(/state cannot be read: its state holds/);
        }
        expect((await call(sessionEvents.GET, 'GET', { params })).json, label).toMatchObject({ total: 3 });
        expect((await call(timeline.GET, 'GET', { params })).status, label).toBe(200);
        expect((await call(userHistory.GET, 'GET', { params: { app: params.app, user: params.user } })).status, label).toBe(200);
        expect((await call(userSessions.GET, 'GET', { params: { app: params.app, user: params.user } })).status, label).toBe(200);
      }
    });
  },
);
