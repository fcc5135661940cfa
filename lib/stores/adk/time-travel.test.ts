// Time travel on a long session (an adk-python SqliteSessionService file):
// it replays in pages with other requests served between them, reads only
// the new events after an append, and gives what a full replay gives. Its
// checkpoints live in Statehouse's own database: a console opened again
// replays at most one checkpoint's span, and a changed session never reads
// a checkpoint of its old events.
// Speed is the bench's (`npm run bench`); this checks the mechanism.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appendPythonSqliteEvent, longSessionEvent, writeLongPythonSqliteSession } from '../../testing/adk-fixtures';
import { createTestDatabase, type TestDatabase } from '../../testing/databases';
import { CHECKPOINT_EVERY } from './base/timeline';
import { MENTION_ROWS } from './base/mentions';
import { TimelineCheckpointLog } from './checkpoint-log';
import { openAdkStore, type AdkSessionStore } from '.';

const EVENTS = 20_000;
const options = { appName: 'app', userId: 'u', sessionId: 'long', events: EVENTS, start: 1_790_000_000 };
const long = { appName: 'app', userId: 'u', sessionId: 'long' };
const short = { appName: 'app', userId: 'u', sessionId: 'short' };

/** Counts the event rows (rows carrying event_data) `work` reads from the agent's file, and the most one statement read. */
async function countEventsRead<T>(work: () => Promise<T>): Promise<{ result: T; eventsRead: number; largestRead: number }> {
  let eventsRead = 0;
  let largestRead = 0;
  const prepare = Database.prototype.prepare;
  const spy = vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database.Database, sql: string) {
    const statement = prepare.call(this, sql);
    const all = statement.all;
    statement.all = (...params: unknown[]) => {
      const rows: unknown[] = Reflect.apply(all, statement, params);
      const events = rows.filter((row) => row instanceof Object && 'event_data' in row).length;
      eventsRead += events;
      largestRead = Math.max(largestRead, events);
      return rows;
    };
    return statement;
  });
  try {
    const result = await work();
    return { result, eventsRead, largestRead };
  } finally {
    spy.mockRestore();
  }
}

const value = (entries: { key: string; value: unknown }[] | undefined, key: string) => entries?.find((entry) => entry.key === key)?.value;

describe('time travel on a long ADK session', () => {
  let dir: string;
  let path: string;
  let store: AdkSessionStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'statehouse-time-travel-'));
    path = join(dir, 'session.db');
    writeLongPythonSqliteSession(path, options);
    writeLongPythonSqliteSession(path, { ...options, sessionId: 'short', events: 3 });
    store = await openAdkStore(path);
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves another request while it replays, and gives each tier as it was', async () => {
    const finished: string[] = [];
    const travel = store.getStateAsOf(long, EVENTS / 2).then((tiers) => {
      finished.push('time travel');
      return tiers;
    });
    const other = store.getSessionSummary(short).then((summary) => {
      finished.push('other session');
      return summary;
    });
    const [tiers, summary] = await Promise.all([travel, other]);
    expect(finished).toEqual(['other session', 'time travel']);
    expect(summary?.eventCount).toBe(3);
    expect(value(tiers?.session, 'counter')).toBe(EVENTS / 2);
    expect(value(tiers?.session, 'k0')).toBe(`v${EVENTS / 2}`);
    expect(value(tiers?.session, 'k1')).toBe(`v${EVENTS / 2 - 49}`);
    expect(value(tiers?.user, 'seen')).toBe(EVENTS / 2);
    expect(tiers?.session.find((entry) => entry.key === 'counter')?.lastChange).toMatchObject({ eventSeq: EVENTS / 2, actor: 'model' });
  });

  it('after an append reads only the new event and the nearest checkpoint’s, not the whole session again', async () => {
    appendPythonSqliteEvent(path, 'app', 'u', 'long', {
      ...longSessionEvent(EVENTS + 1, options),
      actions: { state_delta: { counter: -1 } },
    });
    const { result, eventsRead } = await countEventsRead(async () => ({
      latest: await store.getStateAsOf(long, EVENTS + 1),
      early: await store.getStateAsOf(long, 5),
    }));
    const { latest, early } = result;
    expect(eventsRead).toBeLessThan(1000);
    expect(value(latest?.session, 'counter')).toBe(-1);
    expect(value(early?.session, 'counter')).toBe(5);
    expect(value(early?.session, 'k5')).toBe('v5');
    // A key no event had set by then is absent, not its current value.
    expect(value(early?.session, 'k10')).toBeUndefined();
    expect(await store.getStateAsOf(long, EVENTS + 2)).toBeNull();
  });

  it('reads a page of the session’s events, their changes and the state’s provenance after an append without the whole session', async () => {
    appendPythonSqliteEvent(path, 'app', 'u', 'long', {
      ...longSessionEvent(EVENTS + 2, options),
      actions: { state_delta: { counter: -2, k2: 'changed' } },
    });
    const { result, eventsRead } = await countEventsRead(async () => {
      const tiers = await store.getSessionTiers(long);
      const newest = await store.listEvents(long, { offset: EVENTS + 2 - 50, limit: 50 });
      const reversed = await store.listEvents(long, { newestFirst: true, limit: 3 });
      const changes = await store.listEventChanges(
        long,
        newest.items.map((item) => item.seq),
      );
      const recent = await store.getSession(long, { numRecentEvents: 2 });
      return { tiers, newest, reversed, changes, recent };
    });
    expect(eventsRead).toBeLessThan(1000);
    const { tiers, newest, reversed, changes, recent } = result;
    expect(newest.total).toBe(EVENTS + 2);
    expect(newest.items.map((item) => item.seq)).toEqual(Array.from({ length: 50 }, (_, i) => EVENTS - 47 + i));
    expect(newest.items.at(-1)?.event.id).toBe(`e${EVENTS + 2}`);
    expect(reversed.items.map((item) => item.seq)).toEqual([EVENTS + 2, EVENTS + 1, EVENTS]);
    expect(recent?.events.map((event) => event.id)).toEqual([`e${EVENTS + 1}`, `e${EVENTS + 2}`]);
    expect(recent?.state).toMatchObject({ counter: -2, k2: 'changed' });
    expect(tiers?.session.find((entry) => entry.key === 'k2')?.lastChange).toMatchObject({ eventSeq: EVENTS + 2 });
    // The last event's changes: the values before it are what the events before it set.
    const last = changes.filter((change) => change.eventSeq === EVENTS + 2);
    expect(last.map((change) => [change.key, change.oldValue, change.newValue])).toEqual([
      ['counter', -1, -2],
      ['k2', `v${EVENTS - 48}`, 'changed'],
    ]);
    expect(changes.filter((change) => change.eventSeq === EVENTS - 47).length).toBeGreaterThan(0);
  });

  // After the appends above: event EVENTS + 1 sets counter, EVENTS + 2 counter and k2; k2 is set by every 50th event.
  const settingK2 = [...Array.from({ length: EVENTS / 50 }, (_, i) => 50 * i + 2), EVENTS + 2];

  it('lists the events that set a key by reading only them', async () => {
    const { result, eventsRead } = await countEventsRead(() => store.listEvents(long, { touchedKey: 'k2', newestFirst: true, limit: 3 }));
    expect(eventsRead).toBeLessThan(1000);
    expect(result.total).toBe(settingK2.length);
    expect(result.items.map((item) => item.seq)).toEqual(settingK2.slice(-3).reverse());
    expect(result.items[0]?.event.actions.stateDelta).toMatchObject({ k2: 'changed' });
  });

  it('lists one author’s events a page of events at a time, and serves other requests meanwhile', async () => {
    const finished: string[] = [];
    const listed = countEventsRead(() => store.listEvents(long, { author: 'model', offset: 2, limit: 5 })).then((read) => {
      finished.push('filtered list');
      return read;
    });
    const other = store.getSessionSummary(short).then(() => finished.push('other session'));
    const [{ result, largestRead }] = await Promise.all([listed, other]);
    expect(finished).toEqual(['other session', 'filtered list']);
    expect(largestRead).toBeLessThanOrEqual(CHECKPOINT_EVERY);
    expect(result.total).toBe(EVENTS / 2 + 1);
    expect(result.items.map((item) => item.seq)).toEqual([6, 8, 10, 12, 14]);
    expect(result.items.map((item) => item.event.author)).toEqual(Array.from({ length: 5 }, () => 'model'));
  });

  // An event that changes no state, so that nothing read before is still cached.
  let quiet = EVENTS + 2;
  const appendQuietEvent = () => {
    quiet += 1;
    appendPythonSqliteEvent(path, 'app', 'u', 'long', {
      ...longSessionEvent(quiet, options),
      author: 'tool',
      actions: { state_delta: {} },
    });
  };

  it('gives a key’s history by reading only the events that set it', async () => {
    appendQuietEvent();
    const { result, eventsRead } = await countEventsRead(() => store.getKeyHistory({ ...long, scope: 'session', key: 'k2', limit: 2 }));
    expect(eventsRead).toBeLessThan(1000);
    expect(result.total).toBe(settingK2.length);
    expect(result.items.map((change) => [change.eventSeq, change.oldValue, change.newValue])).toEqual([
      [EVENTS + 2, `v${EVENTS - 48}`, 'changed'],
      [EVENTS - 48, `v${EVENTS - 98}`, `v${EVENTS - 48}`],
    ]);
  });

  it('searches the file’s event text for a key a few thousand rows per statement, never all of it at once', async () => {
    const searches: string[] = [];
    const prepare = Database.prototype.prepare;
    const spy = vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database.Database, sql: string) {
      if (sql.includes('instr(')) searches.push(sql);
      return prepare.call(this, sql);
    });
    try {
      const history = await store.getKeyHistory({ ...long, scope: 'session', key: 'k3', limit: 1 });
      expect(history.items[0]?.newValue).toBe(`v${EVENTS - 47}`);
    } finally {
      spy.mockRestore();
    }
    expect(searches.length).toBeGreaterThanOrEqual(EVENTS / MENTION_ROWS);
  });

  it('gives a user’s history across sessions by reading only the events that set user: keys, a page at a time', async () => {
    appendQuietEvent();
    const { result, eventsRead, largestRead } = await countEventsRead(() => store.getUserHistory('app', 'u', { limit: 2 }));
    expect(eventsRead).toBeLessThan(EVENTS / 4);
    expect(largestRead).toBeLessThanOrEqual(CHECKPOINT_EVERY);
    expect(result.total).toBe(EVENTS / 10);
    expect(result.items.map((change) => [change.key, change.eventSeq, change.oldValue, change.newValue])).toEqual([
      ['seen', EVENTS, EVENTS - 10, EVENTS],
      ['seen', EVENTS - 10, EVENTS - 20, EVENTS - 10],
    ]);
  });

  it('reads a whole session a page of events at a time', async () => {
    appendQuietEvent();
    const { result, largestRead } = await countEventsRead(() => store.getSession(long));
    expect(largestRead).toBeLessThanOrEqual(CHECKPOINT_EVERY);
    expect(result?.events).toHaveLength(quiet);
    expect(result?.events.at(-1)?.id).toBe(`e${quiet}`);
    expect(result?.state).toMatchObject({ counter: -2, k2: 'changed' });
  });
});

describe('time-travel checkpoints in Statehouse’s own database', () => {
  const SPAN = 4 * CHECKPOINT_EVERY;
  let dir: string;
  let path: string;
  let own: TestDatabase;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'statehouse-checkpoints-'));
    path = join(dir, 'session.db');
    writeLongPythonSqliteSession(path, { ...options, events: SPAN });
    own = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await own?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = () => openAdkStore(path, { checkpoints: new TimelineCheckpointLog(own.db.client) });

  it('survive a restart: a console opened again replays less than one checkpoint’s span', async () => {
    const first = await open();
    try {
      expect(value((await first.getStateAsOf(long, SPAN / 2 + 7))?.session, 'counter')).toBe(SPAN / 2 + 7);
    } finally {
      await first.close();
    }
    const again = await open();
    try {
      const { result, eventsRead } = await countEventsRead(() => again.getStateAsOf(long, SPAN / 2 + 7));
      expect(value(result?.session, 'counter')).toBe(SPAN / 2 + 7);
      expect(value(result?.session, 'k7')).toBe(`v${SPAN / 2 + 7}`);
      expect(eventsRead).toBeLessThan(2 * CHECKPOINT_EVERY);
    } finally {
      await again.close();
    }
  });

  it('are not used once the events before them change: an early event replaced under another id replays from before it', async () => {
    const db = new Database(path);
    db.prepare(
      `UPDATE events SET id = 'x3', event_data = json_set(event_data, '$.id', 'x3', '$.actions.state_delta.marker', 'changed')
       WHERE app_name = 'app' AND user_id = 'u' AND session_id = 'long' AND id = 'e3'`,
    ).run();
    db.close();
    const store = await open();
    try {
      const tiers = await store.getStateAsOf(long, SPAN / 2 + 7);
      expect(value(tiers?.session, 'counter')).toBe(SPAN / 2 + 7);
      expect(value(tiers?.session, 'marker')).toBe('changed');
    } finally {
      await store.close();
    }
  });
});
