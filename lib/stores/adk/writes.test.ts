// Writes the ADK way: what Statehouse writes into an adk-python store is
// read back here by ADK's own rules (the rows as its code reads them, its
// stale checks), not by Statehouse's decoder; the audit goes elsewhere.
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { isSessionServiceError, type SessionServiceError } from '../../session-service/errors';
import type { AdkSessionStore } from './base/store';
import type { AuditEntry } from './base/audit';
import { testProviders } from '../../testing/databases';
import { mysqlAvailable } from '../../testing/mysql';
import { APP, dumpAgentDatabase, fixtureLabel, type AdkFixtureKind } from '../../testing/adk-fixtures';
import { openAdkFixture, type FixtureStore } from '../../testing/adk-fixtures/stores';

const providers = await testProviders();
const kinds: AdkFixtureKind[] = [
  { family: 'py-sqlite' },
  { family: 'py-sqlite', wal: true },
  { family: 'py-db', dialect: 'sqlite', clock: 'local', localOffsetHours: 2 },
  { family: 'py-db', dialect: 'sqlite', clock: 'utc' },
];
if (providers.includes('postgresql')) {
  kinds.push(
    { family: 'py-db', dialect: 'postgresql', clock: 'local', localOffsetHours: -5 },
    { family: 'py-db', dialect: 'postgresql', clock: 'timestamptz' },
  );
}
if (await mysqlAvailable()) kinds.push({ family: 'py-db', dialect: 'mysql', clock: 'local', localOffsetHours: -5 });

type Row = Record<string, unknown>;

/** Rows as ADK's driver returns them: SQLite values, or pg's (MySQL's) text for timestamps. */
async function rows(fixture: FixtureStore, sql: string, params: unknown[] = []): Promise<Row[]> {
  if ('mysqlUrl' in fixture.location) {
    const connection = await mysql.createConnection({ uri: fixture.location.mysqlUrl, dateStrings: true });
    try {
      return (await connection.query(sql.replace(/\$\d+/g, '?'), params))[0] as Row[];
    } finally {
      await connection.end();
    }
  }
  if ('sqlitePath' in fixture.location) {
    const db = new Database(fixture.location.sqlitePath, { readonly: true });
    try {
      return db.prepare(sql.replace(/\$\d+/g, '?')).all(...params) as Row[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({
    connectionString: fixture.location.postgresUrl,
    types: { getTypeParser: (oid: number) => (oid === 1114 || oid === 1184 ? (v: string) => v : pg.types.getTypeParser(oid)) } as never,
  });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Row[];
  } finally {
    await client.end();
  }
}

const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
const ref = { appName: APP, userId: 'alice', sessionId: 'trip-paris' };

async function rejection(promise: Promise<unknown>): Promise<SessionServiceError> {
  try {
    await promise;
  } catch (error) {
    if (isSessionServiceError(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe.each(kinds.map((kind) => [fixtureLabel(kind), kind] as const))('writes to %s', (_label, kind) => {
  let fixture: FixtureStore<AdkSessionStore> | undefined;
  let audit: AuditEntry[];
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  async function open() {
    audit = [];
    fixture = await openAdkFixture(kind, { audit: { record: async (entries) => void audit.push(...entries), edits: async () => [] } });
    return fixture;
  }

  it('appends an event as ADK does: event row, tier blobs and update_time in one write', async () => {
    const { store } = await open();
    const before = await store.getSessionSummary(ref);
    const ts = 1_767_230_000.123456;
    const { revision, event } = await store.append(
      ref,
      {
        id: 'sh-1',
        author: 'support',
        invocationId: 'inv-sh',
        timestamp: ts,
        content: { role: 'user', parts: [{ text: 'Ünïcode ok' }] },
        actions: { stateDelta: { destination: 'Nice', 'user:home_city': 'Hamburg', 'app:bookings': 4, 'temp:scratch': 1 } },
      },
      { expectedRevision: before?.revision, actor: 'ops@example.com' },
    );
    expect(event.actions.stateDelta).toEqual({ destination: 'Nice', 'user:home_city': 'Hamburg', 'app:bookings': 4 });
    expect(revision).not.toBe(before?.revision);

    const [stored] = await rows(fixture!, 'SELECT * FROM events WHERE id = $1', ['sh-1']);
    const data = json(stored?.event_data);
    // Python field names, no temp: key, None fields excluded, the four action maps present.
    expect(data).toMatchObject({
      id: 'sh-1',
      invocation_id: 'inv-sh',
      author: 'support',
      timestamp: ts,
      content: { role: 'user', parts: [{ text: 'Ünïcode ok' }] },
      actions: {
        state_delta: { destination: 'Nice', 'user:home_city': 'Hamburg', 'app:bookings': 4 },
        artifact_delta: {},
        requested_auth_configs: {},
        requested_tool_confirmations: {},
      },
    });
    expect(JSON.stringify(data)).not.toMatch(/stateDelta|invocationId|null/);
    expect(stored?.invocation_id).toBe('inv-sh');

    const [session] = await rows(fixture!, 'SELECT state, update_time FROM sessions WHERE id = $1', ['trip-paris']);
    const [app] = await rows(fixture!, 'SELECT state FROM app_states WHERE app_name = $1', [APP]);
    const [user] = await rows(fixture!, 'SELECT state FROM user_states WHERE app_name = $1 AND user_id = $2', [APP, 'alice']);
    expect(json(session?.state)).toEqual({ destination: 'Nice', nights: 3 });
    expect(json(app?.state)).toEqual({ bookings: 4 });
    expect(json(user?.state)).toEqual({ home_city: 'Hamburg' });

    if (kind.family === 'py-sqlite') {
      // REAL epoch seconds: update_time is the event's timestamp; event_data is pydantic's compact JSON.
      expect(session?.update_time).toBe(ts);
      expect(stored?.timestamp).toBe(ts);
      expect(String(stored?.event_data)).not.toContain('": ');
    } else if (kind.family === 'py-db') {
      // StorageEvent.from_event: datetime.fromtimestamp(ts) on the agent's clock, which Statehouse learnt from the data.
      const offset = kind.clock === 'local' ? (kind.localOffsetHours ?? 2) * 3600 : 0;
      const naive = (seconds: number) => new Date(Math.round(seconds * 1000)).toISOString().replace('T', ' ').replace('Z', '').slice(0, 23);
      if (kind.clock === 'timestamptz') {
        expect(String(stored?.timestamp)).toMatch(/^2026-01-01 01:13:20\.123456\+00/);
      } else {
        expect(String(stored?.timestamp)).toBe(`${naive(ts + offset)}456`);
        // sessions.update_time: UTC on SQLite, the agent's clock on PostgreSQL.
        const updateOffset = kind.dialect === 'sqlite' ? 0 : offset;
        expect(String(session?.update_time)).toBe(`${naive(ts + updateOffset)}456`);
      }
      if (kind.dialect !== 'postgresql') {
        // DynamicJSON on SQLite (TEXT) and MySQL (LONGTEXT): json.dumps, ", " and ": " separators, non-ASCII escaped.
        expect(String(stored?.event_data)).toContain('"invocation_id": "inv-sh"');
        expect(String(stored?.event_data)).toContain('\\u00dcn\\u00efcode');
      }
    }
    // Statehouse's record names the account; the agent's rows name the event's author only.
    expect(audit.map((entry) => [entry.kind, entry.actor, entry.eventId]).at(0)).toEqual(['append', 'ops@example.com', 'sh-1']);
  });

  it('makes a copy ADK loaded before the write stale, by ADK’s own rule, and refuses stale appends itself', async () => {
    const { store } = await open();
    const loaded = await store.getSession(ref);
    const [rowBefore] = await rows(fixture!, 'SELECT update_time FROM sessions WHERE id = $1', ['trip-paris']);
    await store.append(ref, { author: 'support', timestamp: 1_767_240_000.5, actions: { stateDelta: { nights: 4 } } });
    const [rowAfter] = await rows(fixture!, 'SELECT update_time FROM sessions WHERE id = $1', ['trip-paris']);
    if (kind.family === 'py-sqlite') {
      // append_event: `if storage_update_time > session.last_update_time: raise ValueError(...)`.
      expect(Number(rowAfter?.update_time) > (loaded?.lastUpdateTime ?? Infinity)).toBe(true);
    } else {
      // _storage_update_marker is the update_time the copy was loaded with: it no longer matches.
      expect(String(rowAfter?.update_time)).not.toBe(String(rowBefore?.update_time));
    }
    const stale = await rejection(store.append(ref, { author: 'agent' }, { expectedRevision: loaded?.revision }));
    expect(stale.code).toBe('STALE_SESSION');
    const current = await store.getSession(ref);
    await store.append(ref, { author: 'agent', timestamp: 1_767_240_001 }, { expectedRevision: current?.revision });
    expect((await store.getSession(ref))?.events).toHaveLength(5);
  });

  it('edits user and app state in their rows only, auditing old and new values outside the agent’s database', async () => {
    const { store } = await open();
    const eventsBefore = await rows(fixture!, 'SELECT id FROM events');
    const entries = await store.editState({
      appName: APP,
      userId: 'alice',
      scope: 'user',
      changes: { home_city: 'Paris', tier: 'gold' },
      actor: 'ops',
      reason: 'ticket 42',
    });
    expect(Object.fromEntries(entries.map((entry) => [entry.key, entry.value]))).toEqual({ home_city: 'Paris', tier: 'gold' });
    await store.editState({ appName: APP, scope: 'app', changes: { bookings: undefined, banner: 'sale' }, actor: 'ops', reason: 'promo' });
    const [user] = await rows(fixture!, 'SELECT state FROM user_states WHERE app_name = $1 AND user_id = $2', [APP, 'alice']);
    const [app] = await rows(fixture!, 'SELECT state FROM app_states WHERE app_name = $1', [APP]);
    expect(json(user?.state)).toEqual({ home_city: 'Paris', tier: 'gold' });
    expect(json(app?.state)).toEqual({ banner: 'sale' });
    expect(await rows(fixture!, 'SELECT id FROM events')).toEqual(eventsBefore);
    expect(audit.map((entry) => [entry.scope, entry.key, entry.oldValue, entry.newValue, entry.reason])).toEqual([
      ['user', 'home_city', 'Munich', 'Paris', 'ticket 42'],
      ['user', 'tier', undefined, 'gold', 'ticket 42'],
      ['app', 'bookings', 3, undefined, 'promo'],
      ['app', 'banner', undefined, 'sale', 'promo'],
    ]);
    // A session of that user now reads the edit, as ADK's get_session would merge it.
    expect((await store.getSession(ref))?.state).toMatchObject({ 'user:home_city': 'Paris', 'app:banner': 'sale' });
  });

  it('leaves every table unchanged however much it is read', async () => {
    const { store } = await open();
    const before = await dumpAgentDatabase(fixture!.location);
    for (let round = 0; round < 3; round += 1) {
      await store.listApps();
      await store.getAppSummary(APP);
      await store.listUsers(APP, { order: 'sessions' });
      await store.searchSessions({ appName: APP, stateKey: 'destination', idContains: 'trip' });
      await store.getSession(ref);
      await store.getSessionTiers(ref);
      await store.listEvents(ref, { newestFirst: true });
      await store.listEventChanges(ref, [1, 2, 3]);
      await store.getStateAsOf(ref, 2);
      await store.getKeyHistory({ appName: APP, scope: 'app', key: 'bookings' });
      await store.getUserHistory(APP, 'alice');
    }
    expect(await dumpAgentDatabase(fixture!.location)).toEqual(before);
  });
});

describe('stores Statehouse does not write', () => {
  it('opens an unknown schema_version read-only and refuses writes with READ_ONLY', async () => {
    const fixture = await openAdkFixture({ family: 'py-db', dialect: 'sqlite', clock: 'utc', schemaVersion: '2' });
    try {
      expect(fixture.store.info.readOnlyReason).toMatch(/schema_version "2"/);
      expect((await fixture.store.getSession(ref))?.events).toHaveLength(3);
      const refused = await rejection(fixture.store.append(ref, { author: 'x' }));
      expect(refused.code).toBe('READ_ONLY');
      expect(
        (await rejection(fixture.store.editState({ appName: APP, scope: 'app', changes: { a: 1 }, actor: 'a', reason: 'r' }))).code,
      ).toBe('READ_ONLY');
    } finally {
      await fixture.close();
    }
  });

  it('refuses the v0 pickle schema, saying to run adk migrate, and an unknown database naming what it found', async () => {
    await expect(openAdkFixture({ family: 'py-db', dialect: 'sqlite', clock: 'utc', v0: true })).rejects.toThrow(
      /v0 schema.*never unpickles.*adk migrate session/s,
    );
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { openAdkStore } = await import('./open');
    const dir = mkdtempSync(join(tmpdir(), 'statehouse-unknown-'));
    const path = join(dir, 'other.db');
    const db = new Database(path);
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    db.close();
    try {
      await expect(openAdkStore(path)).rejects.toThrow(/Cannot read this database.*Found notes\(id, body\)/);
      await expect(openAdkStore(join(dir, 'missing.db'))).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an edit made from a stale view of an adk-python store', () => {
  it('is refused as a CONFLICT naming what the key holds now, and writes nothing', async () => {
    const fixture = await openAdkFixture({ family: 'py-sqlite' });
    try {
      const before = await dumpAgentDatabase(fixture.location);
      const refused = await rejection(
        fixture.store.editState({
          appName: APP,
          userId: 'alice',
          scope: 'user',
          changes: { home_city: 'Oslo' },
          expected: { home_city: { present: true, value: 'Berlin' } },
          actor: 'ops',
          reason: 'stale view',
        }),
      );
      expect(refused.code).toBe('CONFLICT');
      expect((refused as unknown as { conflicts: unknown[] }).conflicts).toEqual([{ key: 'home_city', current: 'Munich' }]);
      expect(await dumpAgentDatabase(fixture.location)).toEqual(before);
      await fixture.store.editState({
        appName: APP,
        userId: 'alice',
        scope: 'user',
        changes: { home_city: 'Oslo' },
        expected: { home_city: { present: true, value: 'Munich' } },
        actor: 'ops',
        reason: 'current view',
      });
      expect((await fixture.store.getUserState(APP, 'alice')).find((entry) => entry.key === 'home_city')?.value).toBe('Oslo');
    } finally {
      await fixture.close();
    }
  });
});

describe('the edit audit in Statehouse’s own database', () => {
  it('records who changed what and why, and shows it in the key history and as the value’s provenance', async () => {
    const { createTestDatabase } = await import('../../testing/databases');
    const { StoreEditLog } = await import('./audit-log');
    const own = await createTestDatabase('sqlite');
    const fixture = await openAdkFixture({ family: 'py-db', dialect: 'sqlite', clock: 'utc' }, { audit: new StoreEditLog(own.db.client) });
    try {
      await fixture.store.editState({
        appName: APP,
        scope: 'app',
        changes: { bookings: 10 },
        actor: 'ops@example.com',
        reason: 'manual booking',
      });
      const history = await fixture.store.getKeyHistory({ appName: APP, scope: 'app', key: 'bookings' });
      expect(history.items[0]).toMatchObject({
        actor: 'ops@example.com',
        reason: 'manual booking',
        oldValue: 3,
        newValue: 10,
        eventId: null,
      });
      // Replayed from the agent's events after it: the sessions' own writes of the key.
      expect(history.items.slice(1).map((change) => change.newValue)).toEqual([3, 2, 1]);
      const entry = (await fixture.store.getAppState(APP)).find((item) => item.key === 'bookings');
      expect(entry?.lastChange).toMatchObject({ actor: 'ops@example.com', reason: 'manual booking' });
      // The app tier's edit is the app's history, not alice's (as on Statehouse's own store).
      const userHistory = await fixture.store.getUserHistory(APP, 'alice');
      expect(userHistory.items.map((change) => change.scope)).toEqual(['user', 'user']);
      const { sqltag } = await import('@prisma/client/runtime/client');
      const rows = await own.db.client.$queryRaw<{ store_id: string; old_value: string; new_value: string }[]>(
        sqltag`SELECT store_id, old_value, new_value FROM store_edits`,
      );
      expect(rows).toEqual([{ store_id: 'agent', old_value: '3', new_value: '10' }]);
    } finally {
      await fixture.close();
      await own.drop();
    }
  });
});
