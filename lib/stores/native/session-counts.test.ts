// The session counts the database keeps (app_session_counts and
// user_session_counts, by triggers on sessions): what the app page, the
// app list and the unfiltered session lists read instead of counting every
// session. They must equal a real count after any mix of creates and
// deletes, concurrent ones included, on both databases; and the migration
// that adds them must count the sessions already there.
import { raw, sqltag as sql } from '@prisma/client/runtime/client';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db';
import { applyMigrations } from '../../migrate';
import { createTestDatabase, testProviders } from '../../testing/databases';
import { uniqueName } from '../../testing/factories';
import { failEventInsert } from '../../testing/faults';
import { useTestDatabase } from '../../testing/use-test-database';
import { createNativeSessionStore, type NativeSessionStore } from './store';
import type { SqlExecutor } from '../../db/sql';

const providers = await testProviders();
/**
 * The migrations that make the counts: the tables and triggers, then (PostgreSQL) its triggers per statement,
 * and the create that counts its own session, its insert trigger skipped for it.
 */
const COUNTS_MIGRATIONS = {
  sqlite: ['20261122142533_session_counts'],
  postgresql: [
    '20261122142533_session_counts',
    '20261122150143_session_counts_per_statement',
    '20261126111500_write_calls_keep_their_docs',
  ],
};

/** The digits 0-9 as rows, for generating many rows in one statement on both databases. */
const digits = raw(Array.from({ length: 10 }, (_, i) => `SELECT ${i} AS x`).join(' UNION ALL '));

/** The counts as the service reports them, next to a real count of the rows. */
async function countsOf(service: NativeSessionStore, client: SqlExecutor, appName: string, users: string[]) {
  const [real] = await client.$queryRaw<{ sessions: unknown; users: unknown }[]>(
    sql`SELECT COUNT(*) AS sessions, COUNT(DISTINCT user_id) AS users FROM sessions WHERE app_name = ${appName}`,
  );
  const summary = await service.getAppSummary(appName);
  const app = await service.searchSessions({ appName, limit: 1 });
  const perUser = await Promise.all(users.map(async (userId) => (await service.searchSessions({ appName, userId, limit: 1 })).total));
  const realPerUser = await Promise.all(
    users.map(async (userId) => {
      const [row] = await client.$queryRaw<{ n: unknown }[]>(
        sql`SELECT COUNT(*) AS n FROM sessions WHERE app_name = ${appName} AND user_id = ${userId}`,
      );
      return Number(row?.n);
    }),
  );
  const listed = (await service.listApps()).find((app) => app.appName === appName);
  return {
    reported: {
      sessions: summary?.sessionCount ?? 0,
      users: summary?.userCount ?? 0,
      total: app.total,
      perUser,
      listed: listed?.sessionCount ?? 0,
    },
    real: {
      sessions: Number(real?.sessions),
      users: Number(real?.users),
      total: Number(real?.sessions),
      perUser: realPerUser,
      listed: Number(real?.sessions),
    },
  };
}

describe.each(providers)('session counts on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('follow creates and deletes: sessions per app and per user, users with sessions', async () => {
    const appName = uniqueName('app');
    const users = ['ann', 'bob', 'cy'];
    const expectCounts = async (sessions: number, withSessions: number) => {
      const { reported, real } = await countsOf(database.service, database.db.client, appName, users);
      expect(reported).toEqual(real);
      expect([reported.sessions, reported.users]).toEqual([sessions, withSessions]);
    };
    for (let i = 0; i < 20; i++) await database.service.createSession({ appName, userId: users[i % 2] ?? '', sessionId: `s${i}` });
    await expectCounts(20, 2);
    // A duplicate id writes nothing, so counts nothing.
    await expect(database.service.createSession({ appName, userId: 'ann', sessionId: 's0' })).rejects.toMatchObject({
      code: 'ALREADY_EXISTS',
    });
    await database.service.createSession({ appName, userId: 'cy', sessionId: 'c1' });
    await expectCounts(21, 3);
    await database.service.deleteSession({ appName, userId: 'cy', sessionId: 'c1' });
    await expectCounts(20, 2);
    // Deleting a missing session changes nothing.
    await database.service.deleteSession({ appName, userId: 'cy', sessionId: 'c1' });
    await expectCounts(20, 2);
    for (let i = 1; i < 20; i += 2) await database.service.deleteSession({ appName, userId: 'bob', sessionId: `s${i}` });
    await expectCounts(10, 1);
    await database.service.createSession({ appName, userId: 'bob', sessionId: 's1' });
    await expectCounts(11, 2);
    for (let i = 0; i < 20; i += 2) await database.service.deleteSession({ appName, userId: 'ann', sessionId: `s${i}` });
    await database.service.deleteSession({ appName, userId: 'bob', sessionId: 's1' });
    await expectCounts(0, 0);
    // No sessions and no shared state: the app is gone from the summary and the list.
    expect(await database.service.getAppSummary(appName)).toBeNull();
    expect((await database.service.listApps()).some((app) => app.appName === appName)).toBe(false);
    await database.service.editState({ appName, scope: 'app', changes: { k: 1 }, actor: 'test', reason: 'test' });
    expect(await database.service.getAppSummary(appName)).toEqual({ appName, sessionCount: 0, userCount: 0, lastUpdateTime: null });
  });

  it('count nothing for a create that fails midway', async () => {
    const appName = uniqueName('app');
    await database.service.createSession({ appName, userId: 'u', sessionId: 'kept' });
    const restore = await failEventInsert(database, 'refused');
    try {
      await expect(
        database.service.createSession({ appName, userId: 'v', sessionId: 'lost', events: [{ id: 'refused', author: 'user' }] }),
      ).rejects.toThrow();
    } finally {
      await restore();
    }
    const { reported, real } = await countsOf(database.service, database.db.client, appName, ['u', 'v']);
    expect(reported).toEqual(real);
    expect(reported.sessions).toBe(1);
  });

  it('stay exact under concurrent creates and deletes of the same users', async () => {
    const appName = uniqueName('app');
    const users = ['u0', 'u1', 'u2', 'u3'];
    // Rounds of creates racing deletes of the previous round's sessions, same users (and so the same rows).
    let previous: { userId: string; sessionId: string }[] = [];
    for (let round = 0; round < 4; round++) {
      const next = Array.from({ length: 24 }, (_, i) => ({ userId: users[i % users.length] ?? '', sessionId: `r${round}-${i}` }));
      await Promise.all([
        ...next.map((ref) => database.service.createSession({ appName, ...ref })),
        ...previous.filter((_, i) => i % 3 !== 0).map((ref) => database.service.deleteSession({ appName, ...ref })),
      ]);
      previous = next;
      const { reported, real } = await countsOf(database.service, database.db.client, appName, users);
      expect(reported).toEqual(real);
    }
    // Every session of two users goes at once: they no longer count as users.
    const { sessions } = await database.service.listSessions({ appName });
    await Promise.all(
      sessions
        .filter((s) => s.userId === 'u1' || s.userId === 'u2')
        .map((s) => database.service.deleteSession({ appName, userId: s.userId, sessionId: s.id })),
    );
    const { reported, real } = await countsOf(database.service, database.db.client, appName, users);
    expect(reported).toEqual(real);
    expect(reported.users).toBe(2);
  });

  it('follow statements that insert or delete many sessions at once', async () => {
    const appName = uniqueName('counts');
    const users = ['a', 'b', 'c', 'd'];
    await database.service.createSession({ appName, userId: 'a', sessionId: 'before' });
    // One statement: 60 sessions of users a (who had one), b, c and d, over every slot.
    await database.db.client.$executeRaw(
      sql`INSERT INTO sessions (app_name, user_id, id, revision, last_seq, create_time, update_time)
          SELECT ${appName}, CASE WHEN n % 4 = 0 THEN 'a' WHEN n % 4 = 1 THEN 'b' WHEN n % 4 = 2 THEN 'c' ELSE 'd' END,
                 'bulk-' || n, 0, 0, n, n
          FROM (SELECT a.x * 10 + b.x AS n FROM (${digits}) a, (${digits}) b) t WHERE n < 60`,
    );
    let counts = await countsOf(database.service, database.db.client, appName, users);
    expect(counts.reported).toEqual(counts.real);
    expect([counts.reported.sessions, counts.reported.users]).toEqual([61, 4]);
    // One statement: every session of b and c, and some of a and d.
    await database.db.client.$executeRaw(
      sql`DELETE FROM sessions WHERE app_name = ${appName} AND (user_id IN ('b', 'c') OR (user_id IN ('a', 'd') AND id LIKE 'bulk-1%'))`,
    );
    counts = await countsOf(database.service, database.db.client, appName, users);
    expect(counts.reported).toEqual(counts.real);
    expect(counts.reported.users).toBe(2);
    await database.db.client.$executeRaw(sql`DELETE FROM sessions WHERE app_name = ${appName}`);
    counts = await countsOf(database.service, database.db.client, appName, users);
    expect(counts.reported).toEqual(counts.real);
    expect([counts.reported.sessions, counts.reported.users]).toEqual([0, 0]);
  });

  it('bound the total of a narrowed search, and say so', async () => {
    const appName = uniqueName('app');
    const capped = createNativeSessionStore(database.db.client, database.provider, { searchCountLimit: 5 });
    for (let i = 0; i < 12; i++)
      await database.service.createSession({ appName, userId: `u${i % 3}`, sessionId: `match-${i}`, state: { plan: 'pro' } });
    await database.service.createSession({ appName, userId: 'u0', sessionId: 'other' });
    const page = (search: Omit<Parameters<typeof capped.searchSessions>[0], 'appName'>) => capped.searchSessions({ appName, ...search });
    // An app's or a user's sessions are counted exactly, whatever the limit.
    expect(await page({ limit: 3 })).toMatchObject({ total: 13, totalIsLowerBound: false });
    expect(await page({ userId: 'u0', limit: 3 })).toMatchObject({ total: 5, totalIsLowerBound: false });
    // A search counts its matches up to 5 past the page's offset.
    expect(await page({ idContains: 'match', limit: 3 })).toMatchObject({ total: 5, totalIsLowerBound: true });
    expect((await page({ idContains: 'match', limit: 3 })).items).toHaveLength(3);
    expect(await page({ idContains: 'match', limit: 3, offset: 6 })).toMatchObject({ total: 11, totalIsLowerBound: true });
    expect(await page({ idContains: 'match', limit: 3, offset: 7 })).toMatchObject({ total: 12, totalIsLowerBound: false });
    expect(await page({ idContains: 'match', limit: 3, offset: 12 })).toEqual({ items: [], total: 12, totalIsLowerBound: false });
    expect(await page({ stateKey: 'plan', stateValue: 'pro', limit: 20 })).toMatchObject({ total: 5, totalIsLowerBound: true });
    expect((await page({ stateKey: 'plan', stateValue: 'pro', limit: 20 })).items).toHaveLength(12);
    expect(await page({ idContains: 'other', limit: 3 })).toMatchObject({ total: 1, totalIsLowerBound: false });
    // Exactly the limit is still exact.
    expect(await page({ userId: 'u1', idContains: 'match', limit: 2 })).toMatchObject({ total: 4, totalIsLowerBound: false });
  });
});

describe.each(providers)('the migration adding session counts on %s', (provider) => {
  it('counts the sessions already there', async () => {
    const database = await createTestDatabase(provider);
    let db = database.db;
    // The database as it was before the counts: drop what their migrations made, then forget they ran.
    const migrations = COUNTS_MIGRATIONS[provider];
    try {
      const undo =
        provider === 'sqlite'
          ? ['DROP TRIGGER sessions_count_insert', 'DROP TRIGGER sessions_count_delete']
          : [
              'DROP TRIGGER sessions_count_insert ON sessions',
              'DROP TRIGGER sessions_count_delete ON sessions',
              'DROP FUNCTION sessions_count_insert()',
              'DROP FUNCTION sessions_count_delete()',
            ];
      for (const statement of [...undo, 'DROP TABLE app_session_counts', 'DROP TABLE user_session_counts']) {
        await db.client.$executeRaw(raw(statement));
      }
      for (const name of migrations) await db.client.$executeRaw(sql`DELETE FROM _prisma_migrations WHERE migration_name = ${name}`);
      // Sessions written before the migration, pks in every slot.
      for (let i = 0; i < 40; i++) {
        await db.client.$executeRaw(
          sql`INSERT INTO sessions (app_name, user_id, id, revision, last_seq, create_time, update_time)
              VALUES (${i % 4 === 0 ? 'old-b' : 'old-a'}, ${`u${i % 7}`}, ${`s${i}`}, 0, 0, ${i}, ${i})`,
        );
      }
      // The engine opens a SQLite file exclusively: nothing else may hold it open meanwhile.
      if (provider === 'sqlite') await db.close();
      expect((await applyMigrations(database.url)).applied).toEqual(migrations);
      if (provider === 'sqlite') db = await openDatabase(database.url);
      const service = createNativeSessionStore(db.client, db.provider);
      for (const appName of ['old-a', 'old-b']) {
        const users = Array.from({ length: 7 }, (_, i) => `u${i}`);
        const { reported, real } = await countsOf(service, db.client, appName, users);
        expect(reported).toEqual(real);
      }
      // And the triggers keep them from there.
      await service.deleteSession({ appName: 'old-b', userId: 'u0', sessionId: 's0' });
      await service.createSession({ appName: 'old-b', userId: 'new', sessionId: 'n' });
      const { reported, real } = await countsOf(service, db.client, 'old-b', ['u0', 'new']);
      expect(reported).toEqual(real);
    } finally {
      if (db !== database.db) await db.close();
      await database.drop();
    }
  });
});
