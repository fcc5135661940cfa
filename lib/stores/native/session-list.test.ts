// listSessions pages in SQL (limit, offset, order, the total from the
// counts) on both databases, and StatehouseSessionService's adk-js paging on it;
// on PostgreSQL, appends and creates are one statement and no transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatehouseSessionService } from '../../agent-service/statehouse-session-service';
import { appendEvent } from '../../session-service/append';
import { testProviders } from '../../testing/databases';
import { uniqueName } from '../../testing/factories';
import { useTestDatabase } from '../../testing/use-test-database';
import type { SqlClient } from '../../db/sql';
import { createNativeSessionStore } from './store';

const providers = await testProviders();

describe.each(providers)('listSessions pages on %s', (provider) => {
  const database = useTestDatabase(provider);
  const app = uniqueName('app');
  let adk: StatehouseSessionService;

  beforeAll(async () => {
    adk = new StatehouseSessionService({ databaseUrl: database.url, migrate: false });
    // s0..s4 of u1 (s2 updated last), s5 of u2; app and user state shared.
    for (let i = 0; i < 5; i++) {
      await database.service.createSession({ appName: app, userId: 'u1', sessionId: `s${i}`, state: { n: i, 'user:plan': 'pro' } });
    }
    await database.service.createSession({
      appName: app,
      userId: 'u2',
      sessionId: 's5',
      state: { 'app:shared': true, 'user:plan': 'free' },
    });
    const s2 = await database.service.getSession({ appName: app, userId: 'u1', sessionId: 's2' });
    if (!s2) throw new Error('s2 missing');
    await appendEvent(database.service, s2, { author: 'agent', actions: { stateDelta: { touched: true } } });
  });
  afterAll(() => adk.close());

  const ids = (list: { sessions: { id: string }[] }) => list.sessions.map((s) => s.id);

  it('pages a user’s sessions by update time, with merged state and the total', async () => {
    const all = await database.service.listSessions({ appName: app, userId: 'u1' });
    expect(ids(all)).toEqual(['s0', 's1', 's3', 's4', 's2']);
    expect(all.total).toBe(5);
    const newest = await database.service.listSessions({ appName: app, userId: 'u1', limit: 2, order: 'desc' });
    expect(ids(newest)).toEqual(['s2', 's4']);
    expect(newest.total).toBe(5);
    expect(newest.sessions[0]).toMatchObject({ state: { n: 2, touched: true, 'user:plan': 'pro', 'app:shared': true }, events: [] });
    expect(ids(await database.service.listSessions({ appName: app, userId: 'u1', limit: 2, offset: 2, order: 'desc' }))).toEqual([
      's3',
      's1',
    ]);
    expect(ids(await database.service.listSessions({ appName: app, userId: 'u1', offset: 4 }))).toEqual(['s2']);
    const none = await database.service.listSessions({ appName: app, userId: 'u1', limit: 0 });
    expect(none).toEqual({ sessions: [], total: 5 });
  });

  it('pages an app’s sessions across users, each with its own user state', async () => {
    const page = await database.service.listSessions({ appName: app, limit: 2, order: 'desc' });
    expect(page.sessions.map((s) => [s.userId, s.id, s.state['user:plan']])).toEqual([
      ['u1', 's2', 'pro'],
      ['u2', 's5', 'free'],
    ]);
    expect(page.total).toBe(6);
    expect(await database.service.listSessions({ appName: uniqueName('app'), limit: 5 })).toEqual({ sessions: [], total: 0 });
  });

  it('refuses a negative limit or offset and an unknown order', async () => {
    for (const request of [{ limit: -1 }, { offset: -2 }, { limit: 1.5 }, { order: 'sideways' as 'asc' }]) {
      await expect(database.service.listSessions({ appName: app, ...request })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
  });

  it('gives adk-js’s page metadata through StatehouseSessionService', async () => {
    const second = await adk.listSessions({ appName: app, userId: 'u1', limit: 2, page: 2, order: 'desc' });
    expect(second.sessions.map((s) => s.id)).toEqual(['s3', 's1']);
    expect(second).toMatchObject({ page: 2, limit: 2, totalItems: 5, totalPages: 3 });
    const byOffset = await adk.listSessions({ appName: app, userId: 'u1', limit: 2, offset: 4, order: 'asc' });
    expect(byOffset.sessions.map((s) => s.id)).toEqual(['s2']);
    expect(byOffset).toMatchObject({ page: 3, totalItems: 5 });
    const everything = await adk.listSessions({ appName: app });
    expect(everything).toMatchObject({ page: 1, limit: 6, totalItems: 6, totalPages: 1 });
    await expect(adk.listSessions({ appName: app, page: 0, limit: 1 })).rejects.toThrow('page must be an integer of at least 1.');
  });
});

describe.runIf(providers.includes('postgresql'))('one round trip per write on PostgreSQL', () => {
  const database = useTestDatabase('postgresql');

  it('creates and appends with one statement each and no transaction', async () => {
    const counts = { statements: 0, transactions: 0 };
    const client = database.db.client;
    const counting: SqlClient = {
      $queryRaw: (query, ...values) => {
        counts.statements++;
        return client.$queryRaw(query, ...values);
      },
      $executeRaw: (query, ...values) => {
        counts.statements++;
        return client.$executeRaw(query, ...values);
      },
      $transaction: (fn, options) => {
        counts.transactions++;
        return client.$transaction(fn, options);
      },
    };
    const store = createNativeSessionStore(counting, 'postgresql');
    const appName = uniqueName('app');
    const session = await store.createSession({ appName, userId: 'u', state: { a: 1, 'user:b': 2, 'app:c': 3 } });
    expect(session.state).toEqual({ a: 1, 'user:b': 2, 'app:c': 3 });
    expect(counts).toEqual({ statements: 1, transactions: 0 });
    await appendEvent(store, session, { author: 'agent', actions: { stateDelta: { a: 2, 'user:b': 3, 'app:c': 4 } } });
    expect(counts).toEqual({ statements: 2, transactions: 0 });
    const history = await store.getKeyHistory({ appName, scope: 'user', userId: 'u', key: 'b' });
    expect(history.items.map((c) => [c.oldValue, c.newValue, c.actor])).toEqual([
      [2, 3, 'agent'],
      [undefined, 2, 'session:create'],
    ]);
  });
});
