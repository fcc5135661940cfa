// adk-python's DatabaseSessionService on MySQL/MariaDB (LONGTEXT json.dumps,
// DATETIME(6)): create_session stores its UTC time naive while appends store
// the agent's local time (adk-python#5085). A session created that way, then
// appended to through Statehouse with the revision any read gave, is never
// refused as stale; Statehouse's own create_session writes the same clocks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mysql from 'mysql2/promise';
import { APP, SESSIONS, T0 } from '../../../testing/adk-fixtures';
import { openAdkFixture, type FixtureStore } from '../../../testing/adk-fixtures/stores';
import { mysqlAvailable } from '../../../testing/mysql';
import type { AdkSessionStore } from '../base/store';

const available = await mysqlAvailable();

async function sessionRow(fixture: FixtureStore, id: string): Promise<Record<string, unknown> | undefined> {
  if (!('mysqlUrl' in fixture.location)) throw new Error('a MySQL fixture');
  const connection = await mysql.createConnection({ uri: fixture.location.mysqlUrl, dateStrings: true });
  try {
    const [rows] = await connection.query('SELECT create_time, update_time FROM sessions WHERE id = ?', [id]);
    return (rows as Record<string, unknown>[])[0];
  } finally {
    await connection.end();
  }
}

describe.skipIf(!available).each([2, -5])('adk-python DatabaseSessionService on MariaDB, agent at UTC%+d', (offsetHours) => {
  let fixture: FixtureStore<AdkSessionStore>;
  beforeAll(async () => {
    fixture = await openAdkFixture({ family: 'py-db', dialect: 'mysql', clock: 'local', localOffsetHours: offsetHours });
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
  });

  it('is detected from its LONGTEXT and DATETIME(6) columns and learns the agent’s clock', () => {
    expect(fixture.store.info).toMatchObject({ family: 'adk-python-db', version: '1' });
    expect(fixture.store.info.description).toMatch(/MySQL\/MariaDB, JSON as longtext/);
    expect(fixture.store.info.readOnlyReason).toBeUndefined();
  });

  it('reads create_time as create_session’s UTC wall time', async () => {
    const paris = (await fixture.store.searchSessions({ appName: APP, userId: 'alice' })).items.find((item) => item.id === 'trip-paris');
    expect(paris?.createTime).toBe(T0);
  });

  it('shows a session no append has touched at the instant create_session stamped, not shifted by the agent’s offset', async () => {
    const filler = SESSIONS.find((session) => session.events.length === 0);
    if (!filler) throw new Error('the scenario has sessions without events');
    const ref = { appName: APP, userId: filler.userId, sessionId: filler.sessionId };
    const row = await sessionRow(fixture, ref.sessionId);
    expect(row?.update_time).toBe(row?.create_time);
    const summary = await fixture.store.getSessionSummary(ref);
    expect(summary?.lastUpdateTime).toBe(filler.created);
    expect(summary?.createTime).toBe(filler.created);
    expect((await fixture.store.getSession(ref))?.lastUpdateTime).toBe(filler.created);
    const listed = (await fixture.store.listSessions({ appName: APP, userId: filler.userId })).sessions.find((s) => s.id === ref.sessionId);
    expect(listed?.lastUpdateTime).toBe(filler.created);
  });

  it('takes the first append on a session adk-python created, with the revision any read gave, without a stale error', async () => {
    const filler = SESSIONS.find((session) => session.events.length === 0);
    if (!filler) throw new Error('the scenario has sessions without events');
    const ref = { appName: APP, userId: filler.userId, sessionId: filler.sessionId };
    const listed = (await fixture.store.listSessions({ appName: APP, userId: filler.userId })).sessions.find((s) => s.id === ref.sessionId);
    const searched = (await fixture.store.searchSessions({ appName: APP, userId: filler.userId, limit: 100 })).items.find(
      (s) => s.id === ref.sessionId,
    );
    const summary = await fixture.store.getSessionSummary(ref);
    const session = await fixture.store.getSession(ref);
    expect(new Set([listed?.revision, searched?.revision, summary?.revision, session?.revision])).toEqual(new Set([summary?.revision]));
    const first = await fixture.store.append(
      ref,
      { author: 'support', timestamp: T0 + 100, actions: { stateDelta: { note: 'first' } } },
      { expectedRevision: listed?.revision },
    );
    // The append wrote the agent's local time, as adk-python's own append does on MySQL.
    const row = await sessionRow(fixture, ref.sessionId);
    const wall = new Date((T0 + 100 + offsetHours * 3600) * 1000).toISOString().replace('T', ' ').replace('Z', '');
    expect(row?.update_time).toBe(`${wall}000`);
    await fixture.store.append(ref, { author: 'support', timestamp: T0 + 101 }, { expectedRevision: first.revision });
    expect((await fixture.store.getSession(ref))?.events).toHaveLength(2);
  });

  it('shows what the agent appends meanwhile on the next read (no snapshot or cache outlives its read)', async () => {
    const ref = { appName: APP, userId: 'bob', sessionId: 'weekend' };
    expect((await fixture.store.getSession(ref))?.events).toHaveLength(1);
    if (!('mysqlUrl' in fixture.location)) throw new Error('a MySQL fixture');
    const connection = await mysql.createConnection({ uri: fixture.location.mysqlUrl });
    try {
      // append_event's statements, as SQLAlchemy issues them on MySQL (the agent's local wall time).
      const ts = T0 + 30;
      const wall = new Date((ts + offsetHours * 3600) * 1000).toISOString().replace('T', ' ').replace('Z', '000');
      await connection.query('UPDATE sessions SET state = ?, update_time = ? WHERE id = ?', [
        '{"budget": {"amount": 600, "currency": "EUR"}}',
        wall,
        'weekend',
      ]);
      await connection.query(
        'INSERT INTO events (id, app_name, user_id, session_id, invocation_id, timestamp, event_data) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [
          'live-1',
          APP,
          'bob',
          'weekend',
          'inv-live',
          wall,
          `{"author": "planner", "timestamp": ${ts}, "actions": {"state_delta": {"budget": {"amount": 600, "currency": "EUR"}}}}`,
        ],
      );
    } finally {
      await connection.end();
    }
    const session = await fixture.store.getSession(ref);
    expect(session?.events.map((event) => event.id)).toEqual(['e5', 'live-1']);
    expect(session?.state.budget).toEqual({ amount: 600, currency: 'EUR' });
    expect(session?.lastUpdateTime).toBe(T0 + 30);
  });

  it('creates a session as create_session does (UTC wall time in both columns), then appends to it without a stale error', async () => {
    const created = await fixture.store.createSession({ appName: APP, userId: 'dave', sessionId: `new-${offsetHours}` });
    const row = await sessionRow(fixture, created.id);
    expect(row?.create_time).toBe(row?.update_time);
    const utcWall = new Date(Math.round(created.lastUpdateTime * 1000)).toISOString().slice(0, 16);
    expect(String(row?.create_time).replace(' ', 'T').slice(0, 16)).toBe(utcWall);
    expect((await fixture.store.getSessionSummary({ appName: APP, userId: 'dave', sessionId: created.id }))?.lastUpdateTime).toBe(
      created.lastUpdateTime,
    );
    const ref = { appName: APP, userId: 'dave', sessionId: created.id };
    await fixture.store.append(ref, { author: 'support', actions: { stateDelta: { x: 1 } } }, { expectedRevision: created.revision });
    expect((await fixture.store.getSession(ref))?.state).toMatchObject({ x: 1 });
  });
});
