// Values no Redis session service would write (a hand edit, another program):
// each case is a copy of the scenario's alice/trip-paris under the user
// mallory with one field changed. A value Statehouse cannot read stays with
// its own session: every other session, user and app reads exactly; the
// broken session answers UNREADABLE, or shows the one event marked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSessionServiceError } from '../../../session-service/errors';
import type { Event } from '../../../session-service/types';
import { APP, FILLERS, SESSIONS } from '../../../testing/adk-fixtures/scenario';
import { writeAdkFixture } from '../../../testing/adk-fixtures/stores';
import { redisAvailable, type RedisFixtureLayout } from '../../../testing/adk-fixtures/redis';
import { openAdkStore, type AdkSessionStore } from '..';
import { connectRedis, type Redis } from './client';
import { parseRedisLocation } from './location';
import { SYNC_EVERY_MS } from './mirror';

const available = await redisAvailable();
const MALLORY = 'mallory';
const alice = { appName: APP, userId: 'alice', sessionId: 'trip-paris' };
const times = SESSIONS.find((s) => s.sessionId === 'trip-paris')?.events.map((e) => e.timestamp) ?? [];

/** How the broken session reads: UNREADABLE, one event marked, or as ADK reads it (a field ADK defaults or ignores). */
type Outcome = 'unreadable' | 'e2' | 'reads';
type Field = Record<string, string>;

interface Case {
  name: string;
  outcome: Outcome;
  /** The marked event's id: its own, or its place (`#1`) when the stored value has none. */
  markedId?: string;
  /** The copied session's fields (adk-python: the hash; community: the parsed blob's top-level fields as JSON text), changed. */
  change(fields: Field): Field | string;
}

const events = (fields: Field) => JSON.parse(fields.events ?? '[]') as unknown[];
const withEvent2 = (fields: Field, item: unknown) => {
  const list = events(fields);
  list[1] = item;
  return { ...fields, events: JSON.stringify(list) };
};
const without = (fields: Field, name: string) => Object.fromEntries(Object.entries(fields).filter(([key]) => key !== name));

const SHARED: Case[] = [
  { name: 'state-not-json', outcome: 'unreadable', change: (f) => ({ ...f, state: '{"destination":' }) },
  { name: 'state-a-list', outcome: 'unreadable', change: (f) => ({ ...f, state: '[1, 2]' }) },
  { name: 'state-missing', outcome: 'reads', change: (f) => without(f, 'state') },
  { name: 'events-not-json', outcome: 'unreadable', change: (f) => ({ ...f, events: '[{"id": "e1"' }) },
  { name: 'events-an-object', outcome: 'unreadable', change: (f) => ({ ...f, events: '{"e1": {}}' }) },
  { name: 'event-a-string', outcome: 'e2', markedId: '#1', change: (f) => withEvent2(f, 'garbage') },
  { name: 'event-content-a-number', outcome: 'e2', change: (f) => withEvent2(f, { ...(events(f)[1] as object), content: 5 }) },
  {
    name: 'event-deep',
    outcome: 'e2',
    markedId: '#1',
    change: (f) => ({
      ...withEvent2(f, 'PLACEHOLDER'),
      events: (withEvent2(f, 'PLACEHOLDER').events ?? '').replace('"PLACEHOLDER"', `${'['.repeat(600)}${']'.repeat(600)}`),
    }),
  },
  { name: 'time-garbage', outcome: 'unreadable', change: (f) => ({ ...f, last_update_time: '"garbage"' }) },
];

const PYTHON: Case[] = [
  ...SHARED.map((c) => (c.name === 'time-garbage' ? { ...c, change: (f: Field) => ({ ...f, last_update_time: 'garbage' }) } : c)),
  { name: 'revision-garbage', outcome: 'reads', change: (f) => ({ ...f, revision: 'x' }) },
  { name: 'a-string-key', outcome: 'unreadable', change: () => 'not a hash' },
];
const COMMUNITY: Case[] = [
  ...SHARED,
  { name: 'blob-not-json', outcome: 'unreadable', change: () => '{"id": "blob-not-json", ' },
  { name: 'blob-a-list', outcome: 'unreadable', change: () => '[]' },
  { name: 'state-null', outcome: 'unreadable', change: (f) => ({ ...f, state: 'null' }) },
];

async function ownOutcome<T>(promise: Promise<T>): Promise<T | 'UNREADABLE'> {
  try {
    return await promise;
  } catch (error) {
    if (isSessionServiceError(error) && error.code === 'UNREADABLE') return 'UNREADABLE';
    throw error;
  }
}

const marked = (list: Event[]) => list.filter((event) => (event.unreadable?.length ?? 0) > 0).map((event) => event.id);

/** Writes each case the layout's way, beside the scenario. */
async function writeCases(client: Redis, layout: RedisFixtureLayout, prefix: string, cases: Case[]): Promise<void> {
  if (layout === 'adk-python') {
    const source = await client.hgetall(`${prefix}:session:${APP}:alice:trip-paris`);
    for (const c of cases) {
      const key = `${prefix}:session:${APP}:${MALLORY}:${c.name}`;
      const changed = c.change(source);
      if (typeof changed === 'string') await client.set(key, changed);
      else await client.hset(key, changed);
      await client.sadd(`${prefix}:sessions_index:${APP}:${MALLORY}`, c.name);
      await client.sadd(`${prefix}:users_index:${APP}`, MALLORY);
    }
    return;
  }
  const blob = JSON.parse((await client.get('session:trip-paris')) ?? '{}') as Record<string, unknown>;
  const fields: Field = Object.fromEntries(Object.entries(blob).map(([key, value]) => [key, JSON.stringify(value)]));
  for (const c of cases) {
    const changed = c.change({ ...fields, id: JSON.stringify(c.name), user_id: JSON.stringify(MALLORY) });
    const text =
      typeof changed === 'string'
        ? changed
        : `{${Object.entries(changed)
            .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
            .join(',')}}`;
    await client.set(`session:${c.name}`, text);
    await client.sadd(`app::${APP}:${MALLORY}`, c.name);
  }
}

describe.each((available ? (['adk-python', 'community'] as const) : []).map((layout) => [layout]))(
  'hostile values in a Redis %s store',
  (layout) => {
    const cases = layout === 'community' ? COMMUNITY : PYTHON;
    let store: AdkSessionStore;
    let remove: () => Promise<void>;
    let locator: string;

    beforeAll(async () => {
      const written = await writeAdkFixture({ family: 'redis', layout });
      remove = written.remove;
      locator = written.locator;
      const location = parseRedisLocation(written.locator);
      const client = await connectRedis(location);
      await writeCases(client, layout, location.prefix ?? 'adk:session', cases);
      client.disconnect();
      store = await openAdkStore(written.locator);
    }, 60_000);

    afterAll(async () => {
      await store?.close();
      await remove?.();
    });

    it('lists every session, the broken ones included, at finite times', async () => {
      const sessionCount = 3 + FILLERS + cases.length;
      expect(await store.getAppSummary(APP)).toMatchObject({ sessionCount, userCount: 4 });
      const page = await store.searchSessions({ appName: APP, limit: 100 });
      expect(page.total).toBe(sessionCount);
      for (const item of page.items) expect(Number.isFinite(item.lastUpdateTime) && Number.isFinite(item.createTime)).toBe(true);
      expect((await store.listSessions({ appName: APP, userId: MALLORY })).sessions.map((s) => s.id).sort()).toEqual(
        cases.map((c) => c.name).sort(),
      );
    });

    it('reads every other session, user and app exactly', async () => {
      const session = await store.getSession(alice);
      expect(session?.state).toMatchObject({ destination: 'Lyon', nights: 3, 'user:home_city': 'Munich', 'app:bookings': 3 });
      expect(session?.events.map((event) => event.timestamp)).toEqual(times);
      expect(marked(session?.events ?? [])).toEqual([]);
      expect(await store.getAppState(APP)).toEqual([expect.objectContaining({ key: 'bookings', value: 3 })]);
      expect(await store.getUserState(APP, 'alice')).toEqual([expect.objectContaining({ key: 'home_city', value: 'Munich' })]);
      expect((await store.getStateAsOf(alice, 2))?.session).toEqual([expect.objectContaining({ key: 'destination', value: 'Paris' })]);
    });

    it.each(cases.map((c) => [c.name, c] as const))('%s breaks only its own session', async (_name, c) => {
      const ref = { appName: APP, userId: MALLORY, sessionId: c.name };
      const session = await ownOutcome(store.getSession(ref));
      if (c.outcome === 'unreadable') {
        expect(session).toBe('UNREADABLE');
      } else {
        expect(session).not.toBe('UNREADABLE');
        const list = session === 'UNREADABLE' ? [] : (session?.events ?? []);
        const shown = c.markedId ?? 'e2';
        expect(list.map((event) => event.id).sort()).toEqual(['e1', shown, 'e3'].sort());
        expect(marked(list)).toEqual(c.outcome === 'e2' ? [shown] : []);
        for (const event of list) expect(Number.isFinite(event.timestamp)).toBe(true);
      }
      await ownOutcome(store.listEvents(ref));
      await ownOutcome(store.getSessionTiers(ref));
      await ownOutcome(store.getStateAsOf(ref, 1));
      expect(await ownOutcome(store.getSessionSummary(ref))).not.toBeNull();
    });

    it('a tier field that is not JSON makes that tier UNREADABLE, and the sessions under it; the rest reads', async () => {
      const location = parseRedisLocation(locator);
      const client = await connectRedis(location);
      const key = layout === 'community' ? `user:${APP}:${MALLORY}` : `${location.prefix}:user_state:${APP}:${MALLORY}`;
      await client.hset(key, 'broken', '{"a":');
      client.disconnect();
      // The next read after SYNC_EVERY_MS reads Redis again.
      await new Promise((resolve) => setTimeout(resolve, SYNC_EVERY_MS + 50));
      expect(await ownOutcome(store.getUserState(APP, MALLORY))).toBe('UNREADABLE');
      expect(await ownOutcome(store.getSession({ appName: APP, userId: MALLORY, sessionId: 'state-missing' }))).toBe('UNREADABLE');
      expect(await store.getUserState(APP, 'alice')).toEqual([expect.objectContaining({ key: 'home_city', value: 'Munich' })]);
      expect((await store.getSession(alice))?.state).toMatchObject({ 'user:home_city': 'Munich' });
    });
  },
);
