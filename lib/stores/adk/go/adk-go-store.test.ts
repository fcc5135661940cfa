// adk-go's session/database on SQLite, PostgreSQL and MariaDB: detected
// (it was refused as an unknown database before this family), read, and
// written the way service.go's AppendEvent and Create write: the rows
// Statehouse's append leaves equal the rows the reproduction of Go's
// AppendEvent leaves for the same event; a copy Go loaded before is stale by
// Go's own rule (`storage.UpdateTime.UnixMicro() > loaded`).
import { afterEach, describe, expect, it } from 'vitest';
import { isSessionServiceError } from '../../../session-service/errors';
import { APP, dumpAgentDatabase, fixtureLabel, SESSIONS, type AdkFixtureKind, type ScenarioSession } from '../../../testing/adk-fixtures';
import { openFixtureDb } from '../../../testing/adk-fixtures/fixture-db';
import { openAdkFixture, writeAdkFixture, type FixtureStore } from '../../../testing/adk-fixtures/stores';
import { testProviders } from '../../../testing/databases';
import { mysqlAvailable } from '../../../testing/mysql';
import { openAdkStore } from '..';
import { openAgentDb } from '../agent-db';
import type { AdkSessionStore } from '../base/store';
import { CannotReadStoreError, detectFamily } from '../detect';
import { ADK_FAMILIES } from '../registry';
import { readSchema } from '../schema';
import { parseGoTime } from './time';

const kinds: AdkFixtureKind[] = [{ family: 'adk-go', dialect: 'sqlite' }];
if ((await testProviders()).includes('postgresql')) kinds.push({ family: 'adk-go', dialect: 'postgresql' });
if (await mysqlAvailable()) kinds.push({ family: 'adk-go', dialect: 'mysql' });

const ref = { appName: APP, userId: 'alice', sessionId: 'trip-paris' };
const TS = 1_767_230_000.123456;
/** The event both Go's reproduction and Statehouse write, in adk-python's dump form for the scenario. */
const EXTRA = {
  id: 'go-1',
  invocation_id: 'inv-go',
  author: 'support',
  timestamp: TS,
  content: { role: 'user', parts: [{ text: 'Nice <ok> & "done"' }] },
  actions: { state_delta: { destination: 'Nice', 'user:home_city': 'Hamburg', 'app:bookings': 4 } },
};

async function rowsOf(location: FixtureStore['location'], sql: string, params: string[] = []) {
  const db = await openFixtureDb(location);
  try {
    return (await db.all(sql, params)).map((row) =>
      Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Buffer.isBuffer(value) ? value.toString('utf8') : value])),
    );
  } finally {
    await db.close();
  }
}

describe.each(kinds.map((kind) => [fixtureLabel(kind), kind] as const))('%s', (_label, kind) => {
  let fixture: FixtureStore<AdkSessionStore> | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it('is detected as adk-go (without this family it is refused as an unknown database)', async () => {
    const written = await writeAdkFixture(kind);
    try {
      const db = await openAgentDb(written.locator);
      try {
        const schema = await readSchema(db);
        expect(() =>
          detectFamily(
            schema,
            ADK_FAMILIES.filter((family) => family.id !== 'adk-go-db'),
          ),
        ).toThrow(CannotReadStoreError);
        expect(detectFamily(schema, ADK_FAMILIES).family.id).toBe('adk-go-db');
      } finally {
        await db.close();
      }
    } finally {
      await written.remove();
    }
  });

  it('appends exactly the rows Go’s AppendEvent writes for the same event, and browsing writes nothing', async () => {
    fixture = await openAdkFixture(kind);
    const before = await dumpAgentDatabase(fixture.location);
    await fixture.store.getSession(ref);
    await fixture.store.searchSessions({ appName: APP, stateKey: 'destination', stateValue: 'Lyon' });
    expect(await dumpAgentDatabase(fixture.location)).toEqual(before);

    const summary = await fixture.store.getSessionSummary(ref);
    await fixture.store.append(
      ref,
      {
        id: EXTRA.id,
        invocationId: EXTRA.invocation_id,
        author: EXTRA.author,
        timestamp: TS,
        content: EXTRA.content,
        actions: { stateDelta: EXTRA.actions.state_delta },
      },
      { expectedRevision: summary?.revision },
    );
    // Go's history with the event appended last: the session it goes to is written after the others.
    const paris = SESSIONS.find((session) => session.sessionId === ref.sessionId);
    if (!paris) throw new Error('the scenario has trip-paris');
    const sessions: ScenarioSession[] = [
      ...SESSIONS.filter((session) => session !== paris),
      { ...paris, events: [...paris.events, { ...EXTRA, actions: { ...EXTRA.actions, artifact_delta: {} } }] },
    ];
    const go = await writeAdkFixture(kind, sessions);
    try {
      for (const sql of [
        'SELECT * FROM events WHERE id = ?',
        'SELECT state, update_time FROM sessions WHERE id = ?',
        'SELECT state FROM app_states',
        'SELECT state FROM user_states WHERE user_id = ?',
      ]) {
        const param = sql.includes('events')
          ? [EXTRA.id]
          : sql.includes('sessions')
            ? [ref.sessionId]
            : sql.includes('user_id')
              ? ['alice']
              : [];
        const mine = await rowsOf(fixture.location, sql.replace('?', kind.dialect === 'postgresql' ? '$1' : '?'), param);
        const theirs = await rowsOf(go.location, sql.replace('?', kind.dialect === 'postgresql' ? '$1' : '?'), param);
        expect(mine, sql).toEqual(theirs);
      }
    } finally {
      await go.remove();
    }
  });

  it('shows what another writer appends meanwhile on the next read', async () => {
    fixture = await openAdkFixture(kind);
    expect((await fixture.store.getSession(ref))?.events).toHaveLength(3);
    // Another process writing Go's rows (the writes above are checked equal to Go's).
    const agent = await openAdkStore(fixture.locator);
    try {
      await agent.append(ref, { id: 'live-1', author: 'planner', timestamp: TS, actions: { stateDelta: { nights: 5 } } });
    } finally {
      await agent.close();
    }
    const session = await fixture.store.getSession(ref);
    expect(session?.events.map((event) => event.id)).toEqual(['e1', 'e2', 'e3', 'live-1']);
    expect(session?.state.nights).toBe(5);
  });

  it('leaves a copy Go loaded before stale by Go’s rule, and refuses stale appends itself', async () => {
    fixture = await openAdkFixture(kind);
    const [loaded] = await rowsOf(
      fixture.location,
      `SELECT update_time FROM sessions WHERE id = ${kind.dialect === 'postgresql' ? '$1' : '?'}`,
      [ref.sessionId],
    );
    const copy = await fixture.store.getSession(ref);
    await fixture.store.append(ref, { author: 'support', timestamp: TS, actions: { stateDelta: { nights: 4 } } });
    const [after] = await rowsOf(
      fixture.location,
      `SELECT update_time FROM sessions WHERE id = ${kind.dialect === 'postgresql' ? '$1' : '?'}`,
      [ref.sessionId],
    );
    const micros = (raw: unknown) => Math.round(parseGoTime(raw).seconds * 1e6);
    expect(micros(after?.update_time)).toBeGreaterThan(micros(loaded?.update_time));
    let code: string | undefined;
    try {
      await fixture.store.append(ref, { author: 'agent' }, { expectedRevision: copy?.revision });
    } catch (error) {
      if (isSessionServiceError(error)) code = error.code;
    }
    expect(code).toBe('STALE_SESSION');
  });

  it('creates a session as Create does: no tier rows without initial tier state, create_time = update_time', async () => {
    fixture = await openAdkFixture(kind);
    const created = await fixture.store.createSession({ appName: 'fresh_app', userId: 'zoe', sessionId: 'z1', state: { topic: 'x' } });
    expect(created.state).toEqual({ topic: 'x' });
    const mark = kind.dialect === 'postgresql' ? '$1' : '?';
    const [row] = await rowsOf(fixture.location, `SELECT state, create_time, update_time FROM sessions WHERE id = ${mark}`, ['z1']);
    expect(row?.create_time).toBe(row?.update_time);
    expect(JSON.parse(String(typeof row?.state === 'string' ? row.state : JSON.stringify(row?.state)))).toEqual({ topic: 'x' });
    expect(await rowsOf(fixture.location, `SELECT * FROM app_states WHERE app_name = ${mark}`, ['fresh_app'])).toEqual([]);
    const appended = await fixture.store.append(
      { appName: 'fresh_app', userId: 'zoe', sessionId: 'z1' },
      { author: 'agent', actions: { stateDelta: { 'app:seen': true } } },
      { expectedRevision: created.revision },
    );
    expect(appended.event.actions.stateDelta).toEqual({ 'app:seen': true });
    const [app] = await rowsOf(fixture.location, `SELECT state, update_time FROM app_states WHERE app_name = ${mark}`, ['fresh_app']);
    expect(JSON.parse(typeof app?.state === 'string' ? app.state : JSON.stringify(app?.state))).toEqual({ seen: true });
  });
});
