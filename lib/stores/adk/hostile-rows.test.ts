// Rows no ADK would write, in every family Statehouse opens: a row it cannot
// read stays local to its own session. Every other session, user and app
// reads exactly what it reads without them; the broken session shows the
// row marked unreadable (its raw text, why), or answers UNREADABLE (a 4xx)
// when the session cannot be assembled at all. Never a throw of anything
// else, never a wrong clock learnt from one odd row.
import { describe, expect, it } from 'vitest';
import { isSessionServiceError } from '../../session-service/errors';
import type { Event } from '../../session-service/types';
import { testProviders } from '../../testing/databases';
import { mysqlAvailable } from '../../testing/mysql';
import { APP, FILLERS, fixtureLabel, SESSIONS, type AdkFixtureKind } from '../../testing/adk-fixtures';
import { HOSTILE_SOURCE, HOSTILE_USER, writeHostileRows } from '../../testing/adk-fixtures/hostile';
import { BROKEN_APP, BROKEN_USER, writeHostileTiers } from '../../testing/adk-fixtures/hostile-tiers';
import { writeAdkFixture } from '../../testing/adk-fixtures/stores';
import { openAdkStore } from '.';
import { useSpoiledAdkStore } from '../../testing/adk-fixtures/spoiled-store';

const providers = await testProviders();
const kinds: AdkFixtureKind[] = [
  { family: 'py-sqlite' },
  { family: 'py-db', dialect: 'sqlite', clock: 'local', localOffsetHours: 2 },
  { family: 'py-db', dialect: 'sqlite', clock: 'utc' },
  { family: 'adk-js', dialect: 'sqlite' },
  { family: 'adk-rust', dialect: 'sqlite' },
  { family: 'adk-go', dialect: 'sqlite' },
];
if (providers.includes('postgresql')) {
  kinds.push(
    { family: 'py-db', dialect: 'postgresql', clock: 'local', localOffsetHours: -5 },
    { family: 'py-db', dialect: 'postgresql', clock: 'timestamptz' },
    { family: 'adk-js', dialect: 'postgresql' },
    { family: 'adk-rust', dialect: 'postgresql' },
    { family: 'adk-go', dialect: 'postgresql' },
  );
}
if (await mysqlAvailable())
  kinds.push({ family: 'py-db', dialect: 'mysql', clock: 'local', localOffsetHours: -5 }, { family: 'adk-go', dialect: 'mysql' });

const alice = { appName: APP, ...HOSTILE_SOURCE };
const tripParis = SESSIONS.find((session) => session.sessionId === HOSTILE_SOURCE.sessionId);
const expectedTimes = tripParis?.events.map((event) => event.timestamp) ?? [];

/** Resolves to the value, or to the domain error's code when it is UNREADABLE; anything else fails the test. */
async function ownOutcome<T>(promise: Promise<T>): Promise<T | 'UNREADABLE'> {
  try {
    return await promise;
  } catch (error) {
    if (isSessionServiceError(error) && error.code === 'UNREADABLE') return 'UNREADABLE';
    throw error;
  }
}

const marked = (events: Event[]) => events.filter((event) => Array.isArray(event.unreadable) && event.unreadable.length > 0);

describe.each(kinds.map((kind) => [fixtureLabel(kind), kind] as const))('hostile rows in %s', (_label, kind) => {
  const fixture = useSpoiledAdkStore(kind, (written) => writeHostileRows(written, kind, APP));

  it('lists the app, its users and every session, the hostile ones included', async () => {
    const sessionCount = 3 + FILLERS + fixture.spoiled.length;
    expect(await fixture.store.listApps()).toEqual([expect.objectContaining({ appName: APP, sessionCount, userCount: 4 })]);
    expect(await fixture.store.getAppSummary(APP)).toMatchObject({ sessionCount, userCount: 4 });
    const users = await fixture.store.listUsers(APP, { limit: 10 });
    expect(users.total).toBe(4);
    for (const user of users.items) expect(Number.isFinite(user.lastUpdateTime)).toBe(true);
    const page = await fixture.store.searchSessions({ appName: APP, limit: 100 });
    expect(page.total).toBe(sessionCount);
    expect(page.items.map((item) => item.id)).toEqual(expect.arrayContaining(fixture.spoiled.map((c) => c.name)));
    for (const item of page.items) {
      expect(Number.isFinite(item.lastUpdateTime) && Number.isFinite(item.createTime)).toBe(true);
    }
    const listed = await fixture.store.listSessions({ appName: APP });
    expect(listed.sessions.length).toBe(sessionCount);
    const mallory = await fixture.store.listSessions({ appName: APP, userId: HOSTILE_USER });
    expect(mallory.sessions.map((session) => session.id).sort()).toEqual(fixture.spoiled.map((c) => c.name).sort());
  });

  it('reads every other session exactly, at the true instants', async () => {
    const session = await fixture.store.getSession(alice);
    expect(session?.state).toMatchObject({ destination: 'Lyon', nights: 3, 'user:home_city': 'Munich', 'app:bookings': 3 });
    expect(session?.events.map((event) => event.timestamp)).toEqual(expectedTimes);
    expect(marked(session?.events ?? [])).toEqual([]);
    const summary = await fixture.store.getSessionSummary(alice);
    expect(summary).toMatchObject({ eventCount: 3, lastUpdateTime: expectedTimes.at(-1) });
    expect((await fixture.store.listEvents(alice)).items.map((item) => item.event.id)).toEqual(['e1', 'e2', 'e3']);
    expect((await fixture.store.getStateAsOf(alice, 2))?.session).toEqual([
      expect.objectContaining({ key: 'destination', value: 'Paris' }),
    ]);
    expect((await fixture.store.getUserHistory(APP, 'alice')).total).toBeGreaterThan(0);
    expect(await fixture.store.getAppState(APP)).toEqual([expect.objectContaining({ key: 'bookings', value: 3 })]);
    expect(await fixture.store.getUserState(APP, 'alice')).toEqual([expect.objectContaining({ key: 'home_city', value: 'Munich' })]);
  });

  it('keeps the hostile user’s own pages readable', async () => {
    const history = await fixture.store.getUserHistory(APP, HOSTILE_USER, { limit: 1000 });
    for (const change of history.items) expect(Number.isFinite(change.time)).toBe(true);
    const found = await fixture.store.searchSessions({ appName: APP, userId: HOSTILE_USER, limit: 100 });
    expect(found.total).toBe(fixture.spoiled.length);
  });

  it('shows each hostile session with its row marked unreadable, or answers UNREADABLE', async () => {
    for (const hostile of fixture.spoiled) {
      const ref = { appName: APP, userId: HOSTILE_USER, sessionId: hostile.name };
      const session = await ownOutcome(fixture.store.getSession(ref));
      const label = `${hostile.name}: ${hostile.row}.${hostile.column}`;
      if (session === 'UNREADABLE') {
        expect(hostile.row, label).toBe('session');
        continue;
      }
      expect(session, label).not.toBeNull();
      const events = session?.events ?? [];
      // An unreadable time may sort anywhere (ADK orders by the column as stored); every event is there.
      expect(events.map((event) => event.id).sort(), label).toEqual(['e1', 'e2', 'e3']);
      for (const event of events) {
        expect(Number.isFinite(event.timestamp), label).toBe(true);
        expect(() => JSON.stringify(event), label).not.toThrow();
        for (const part of event.content?.parts ?? []) expect(typeof part === 'object' && part !== null, label).toBe(true);
      }
      const flagged = marked(events);
      if (hostile.shows === 'unmarked') expect(flagged, label).toEqual([]);
      else if (hostile.row !== 'session' && hostile.shows !== 'either') {
        expect(
          flagged.map((event) => event.id),
          label,
        ).toEqual([hostile.row]);
        const note = flagged[0]?.unreadable?.[0];
        expect(note?.reason, label).toEqual(expect.any(String));
        expect(typeof note?.raw, label).toBe('string');
      }
      await ownOutcome(fixture.store.listEvents(ref));
      await ownOutcome(fixture.store.getSessionTiers(ref));
      await ownOutcome(fixture.store.getStateAsOf(ref, 1));
      await ownOutcome(fixture.store.getSessionSummary(ref));
    }
  });
});

describe('one far-future event in an adk-python v1 store', () => {
  it('does not decide the clock of every other row, nor of an append', async () => {
    const kind: AdkFixtureKind = { family: 'py-db', dialect: 'sqlite', clock: 'local', localOffsetHours: 2 };
    const written = await writeAdkFixture(kind);
    await writeHostileRows(written, kind, APP, ['ts-far-future']);
    const opened = await openAdkStore(written.locator);
    try {
      expect((await opened.getSession(alice))?.events.map((event) => event.timestamp)).toEqual(expectedTimes);
      const at = (expectedTimes.at(-1) ?? 0) + 60.5;
      await opened.append(alice, { author: 'support', id: 'console', timestamp: at });
      expect((await opened.getSession(alice))?.events.at(-1)?.timestamp).toBe(at);
      expect(opened.info.description).toMatch(/events UTC\+02:00, learnt from/);
    } finally {
      await opened.close();
      await written.remove();
    }
  });
});

describe.each(kinds.map((kind) => [fixtureLabel(kind), kind] as const))('a broken app or user tier row in %s', (_label, kind) => {
  const fixture = useSpoiledAdkStore(kind, (written) => writeHostileTiers(written, kind, APP));
  const inBrokenApp = { ...alice, appName: BROKEN_APP };
  const ofBrokenUser = { ...alice, userId: BROKEN_USER };

  it('lists both apps and every user, at readable times', async () => {
    const apps = await fixture.store.listApps();
    expect(apps.map((app) => app.appName).sort()).toEqual([APP, BROKEN_APP].sort());
    expect(await fixture.store.getAppSummary(BROKEN_APP)).toMatchObject({ sessionCount: 1, userCount: 1 });
    const users = await fixture.store.listUsers(APP, { limit: 10 });
    expect(users.items.map((user) => user.userId)).toContain(BROKEN_USER);
    for (const user of users.items) expect(Number.isFinite(user.lastUpdateTime)).toBe(true);
    expect((await fixture.store.listUsers(BROKEN_APP)).items.map((user) => user.userId)).toEqual(['alice']);
    expect((await fixture.store.searchSessions({ appName: APP, userId: BROKEN_USER })).total).toBe(1);
    expect((await fixture.store.searchSessions({ appName: BROKEN_APP })).total).toBe(1);
  });

  it('reads every other app, user and session exactly', async () => {
    expect(await fixture.store.getAppState(APP)).toEqual([expect.objectContaining({ key: 'bookings', value: 3 })]);
    expect(await fixture.store.getUserState(APP, 'alice')).toEqual([expect.objectContaining({ key: 'home_city', value: 'Munich' })]);
    expect(await fixture.store.getUserState(BROKEN_APP, 'alice')).toEqual([expect.objectContaining({ key: 'home_city', value: 'Munich' })]);
    const session = await fixture.store.getSession(alice);
    expect(session?.state).toMatchObject({ destination: 'Lyon', 'user:home_city': 'Munich', 'app:bookings': 3 });
    expect((await fixture.store.getSessionTiers(alice))?.app).toEqual([expect.objectContaining({ key: 'bookings', value: 3 })]);
    expect((await fixture.store.getStateAsOf(alice, 2))?.user).toEqual([expect.objectContaining({ key: 'home_city', value: 'Berlin' })]);
  });

  it('answers UNREADABLE for the broken tier and for the state of sessions under it, never a wrong or empty tier', async () => {
    expect(await ownOutcome(fixture.store.getAppState(BROKEN_APP))).toBe('UNREADABLE');
    expect(await ownOutcome(fixture.store.getUserState(APP, BROKEN_USER))).toBe('UNREADABLE');
    for (const ref of [inBrokenApp, ofBrokenUser]) {
      const label = `${ref.appName}/${ref.userId}`;
      expect(await ownOutcome(fixture.store.getSession(ref)), label).toBe('UNREADABLE');
      expect(await ownOutcome(fixture.store.getSessionTiers(ref)), label).toBe('UNREADABLE');
      expect(await ownOutcome(fixture.store.getStateAsOf(ref, 1)), label).toBe('UNREADABLE');
      // What does not depend on the tier still reads: the session's summary, its events, its history.
      expect(await fixture.store.getSessionSummary(ref), label).toMatchObject({ eventCount: 3 });
      expect(
        (await fixture.store.listEvents(ref)).items.map((item) => item.event.id),
        label,
      ).toEqual(['e1', 'e2', 'e3']);
      expect((await fixture.store.getUserHistory(ref.appName, ref.userId)).total, label).toBeGreaterThan(0);
    }
  });
});
