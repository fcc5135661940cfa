// Session reads on SQLite run synchronously when the connection is free
// (SqlClient.$readNow) and through the adapter otherwise. Both paths must
// give the same session, byte for byte, and the synchronous one must never
// read a write that is still in flight.
import { raw } from '@prisma/client/runtime/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../../testing/factories';
import { useTestDatabase } from '../../testing/use-test-database';
import { createNativeSessionStore, type NativeSessionStore } from './store';
import type { SqlClient } from '../../db/sql';
import type { NewEvent } from '../../session-service/types';
import { appendEvent } from '../../session-service/append';
import { sqliteSessionRead } from './session-snapshot';

const uniqueApp = () => uniqueName('read');

function delta(stateDelta: Record<string, unknown>, timestamp?: number): NewEvent {
  return { author: 'agent', invocationId: 'inv', timestamp, actions: { stateDelta: stateDelta as never } };
}

function withoutReadNow(client: SqlClient): SqlClient {
  return {
    $queryRaw: (query, ...values) => client.$queryRaw(query, ...values),
    $executeRaw: (query, ...values) => client.$executeRaw(query, ...values),
    $transaction: (fn, options) => client.$transaction(fn, options),
  };
}

describe('session reads on SQLite', () => {
  const database = useTestDatabase('sqlite');
  /** The same database through the adapter only: no synchronous reads. */
  let adapterOnly: NativeSessionStore;
  beforeAll(() => {
    adapterOnly = createNativeSessionStore(withoutReadNow(database.db.client), 'sqlite');
  });

  it('read synchronously when no transaction is open', () => {
    const readNow = database.db.client.$readNow;
    expect(readNow).toBeDefined();
    expect(readNow?.((tx) => tx.queryRows<{ one: number }>(raw('SELECT 1 AS one')))).toEqual({ result: [{ one: 1 }] });
  });

  it('give the same session, byte for byte, synchronously and through the adapter', async () => {
    const appName = uniqueApp();
    const ref = { appName, userId: 'ユーザー', sessionId: 'séance' };
    const state = JSON.parse('{"__proto__": {"polluted": true}, "user:__proto__": 1, "app:k": "Zoë 😀"}');
    const session = await database.service.createSession({ ...ref, state });
    const big = 'é'.repeat(512 * 1024) + '😀'.repeat(1000);
    for (let i = 1; i <= 30; i++) {
      // Equal timestamps in pairs: ties keep append order.
      await appendEvent(
        database.service,
        session,
        delta({ n: i, 'user:big': i === 30 ? big : i, 'app:x': { '\u2028': [i] } }, 1000 + Math.ceil(i / 2)),
      );
    }
    for (const config of [
      {},
      { numRecentEvents: 20 },
      { numRecentEvents: 0 },
      { numRecentEvents: 7, afterTimestamp: 1010 },
      { afterTimestamp: 1014 },
    ]) {
      const now = await database.service.getSession(ref, config);
      const through = await adapterOnly.getSession(ref, config);
      expect(JSON.stringify(now)).toBe(JSON.stringify(through));
      expect(now?.state['user:big']).toBe(big);
      expect(Object.getPrototypeOf(now?.state)).toBe(Object.prototype);
    }
    const recent = await database.service.getSession(ref, { numRecentEvents: 3 });
    expect(recent?.events.map((e) => e.actions.stateDelta.n)).toEqual([28, 29, 30]);
    expect(await database.service.getSession({ ...ref, sessionId: 'absent' })).toBeNull();
  });

  it('never read a write in flight: they wait for it, and see nothing of it when it rolls back', async () => {
    const appName = uniqueApp();
    const ref = { appName, userId: 'u', sessionId: 's' };
    await database.service.createSession({ ...ref, state: { a: 1, 'user:b': 1 } });
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let written = () => {};
    const inFlight = new Promise<void>((resolve) => (written = resolve));
    const write = database.db.client.$transaction(async (tx) => {
      await tx.$executeRaw(raw(`UPDATE session_state SET value = '2' WHERE key = 'a'`));
      await tx.$executeRaw(raw(`UPDATE user_state SET value = '2' WHERE app_name = '${appName}'`));
      written();
      await gate;
      throw new Error('rolled back');
    });
    await inFlight;
    // The connection is inside the write's transaction: no synchronous read now.
    expect(database.db.client.$readNow?.(() => 'read')).toBeUndefined();
    let settled = false;
    const read = database.service.getSession(ref).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    release();
    await expect(write).rejects.toThrow('rolled back');
    expect((await read)?.state).toEqual({ a: 1, 'user:b': 1 });
    expect(database.db.client.$readNow?.(() => 'read')).toEqual({ result: 'read' });
  });

  it('report a failed read as the adapter reports it', async () => {
    const appName = uniqueApp();
    const ref = { appName, userId: 'u', sessionId: 's' };
    await database.service.createSession({ ...ref, state: { a: 1 } });
    const client = database.db.client;
    expect(
      client.$readNow?.(() => {
        throw new Error('no');
      }),
    ).toBeUndefined();
    await client.$executeRaw(raw('ALTER TABLE events RENAME TO events_moved'));
    try {
      const now = await database.service.getSession(ref).catch((error: unknown) => error);
      const through = await adapterOnly.getSession(ref).catch((error: unknown) => error);
      expect(now).toBeInstanceOf(Error);
      expect(now).toEqual(through);
      expect((now as Error).message).toMatch(/events/);
    } finally {
      await client.$executeRaw(raw('ALTER TABLE events_moved RENAME TO events'));
    }
    expect((await database.service.getSession(ref))?.state).toEqual({ a: 1 });
  });
});

describe('the SQLite session read', () => {
  // SQLite's planner reads a bare bound LIMIT (`LIMIT ?`), and a statement
  // whose plan read a parameter is prepared again whenever that parameter is
  // bound: the cached statement was re-prepared on every read of recent events.
  it('binds the recent events LIMIT where the planner does not read it', () => {
    const steps = sqliteSessionRead({ appName: 'a', userId: 'u', sessionId: 's' }, 20, undefined);
    steps.next([]);
    steps.next([{ pk: 1, revision: 0, update_time: 0 }]);
    const events = steps.next([]);
    expect(events.done).toBe(false);
    const statement = events.value as { sql: string; values: unknown[] };
    expect(statement.sql).toMatch(/LIMIT \+\?$/);
    expect(statement.values).toEqual([1, 20]);
  });
});
