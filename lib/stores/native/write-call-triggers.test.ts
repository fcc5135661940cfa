// On PostgreSQL an append and a create are each one function call. The rows
// their write derives (the event's, the session's and each state key's
// search docs, the session counts) were kept by triggers, each a call of its own per write,
// the counts' also a transition table grouped over. The functions now write
// them with values they already hold, and the triggers stay for every other
// writer. Counted in the write's own transaction, not timed.
import { raw, sqltag as sql } from '@prisma/client/runtime/client';
import { describe, expect, it } from 'vitest';
import { testProviders } from '../../testing/databases';
import { uniqueName } from '../../testing/factories';
import { useTestDatabase } from '../../testing/use-test-database';

const providers = await testProviders();
const TRIGGERS = [
  'search_events',
  'search_sessions',
  'sessions_count_insert',
  'statehouse_note_latest_changes',
  'search_app_state',
  'search_user_state',
  'search_session_state',
];

describe.skipIf(!providers.includes('postgresql'))('the triggers an append and a create run (PostgreSQL)', () => {
  const database = useTestDatabase('postgresql');

  /**
   * The functions (by default the triggers) `write` called, by name: the difference of the backend's counts before and after
   * it, in one transaction (the backend flushes them only outside one).
   */
  async function triggersCalledBy(write: string, functions: string[] = TRIGGERS): Promise<Record<string, number>> {
    return database.db.client.$transaction(async (tx) => {
      const calls = async (): Promise<Record<string, number>> => {
        const rows = await tx.$queryRaw<{ name: string; calls: bigint | null }[]>(
          sql`SELECT t AS name, pg_stat_get_xact_function_calls(CAST(t AS regproc)) AS calls FROM unnest(CAST(${functions} AS TEXT[])) AS t`,
        );
        return Object.fromEntries(rows.map((row) => [row.name, Number(row.calls ?? 0)]));
      };
      await tx.$executeRaw(sql`SET LOCAL track_functions = 'all'`);
      const before = await calls();
      await tx.$queryRaw(raw(write));
      const after = await calls();
      return Object.fromEntries(functions.map((name) => [name, (after[name] ?? 0) - (before[name] ?? 0)]).filter(([, n]) => n !== 0));
    });
  }

  it('are none: the calls write their own docs and counts, and the service reads them back', async () => {
    const appName = uniqueName('own');
    const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
    const created = await triggersCalledBy(
      `SELECT part FROM statehouse_create(${literal(appName)}, 'ann', 's1', 1, 'session:create', '[["mode","\\"a\\""]]',
         '[["plan","\\"pro\\""]]', '[["topic","\\"billing\\""]]')`,
    );
    expect(created).toEqual({});
    const data = JSON.stringify({ author: 'agent', content: { role: 'model', parts: [{ text: 'refund approved' }] } });
    const appended = await triggersCalledBy(
      `SELECT outcome FROM statehouse_append(${literal(appName)}, 'ann', 's1', NULL, 'e1', 'i', 'agent', 2, ${literal(data)},
         'agent', NULL, NULL, '[["topic","\\"refunds\\""]]')`,
    );
    expect(appended).toEqual({});

    expect(await database.service.getAppSummary(appName)).toMatchObject({ sessionCount: 1, userCount: 1 });
    await database.service.createSession({ appName, userId: 'ann', sessionId: 's2' });
    await database.service.createSession({ appName, userId: 'bo', sessionId: 's3' });
    expect(await database.service.getAppSummary(appName)).toMatchObject({ sessionCount: 3, userCount: 2 });
    const docs = await database.db.client.$queryRaw<{ kind: string; user: string; session: string; key: string; body: string }[]>(
      sql`SELECT kind, user_id AS user, session_id AS session, key, body FROM search_docs
          WHERE app_name = ${appName} AND session_id IN ('', 's1') ORDER BY kind, session_id, user_id, key`,
    );
    expect(docs).toEqual([
      { kind: 'event', user: 'ann', session: 's1', key: '1', body: 'refund approved' },
      { kind: 'session', user: 'ann', session: 's1', key: '', body: 'ann s1' },
      { kind: 'state', user: '', session: '', key: 'mode', body: '"a"' },
      { kind: 'state', user: 'ann', session: '', key: 'plan', body: '"pro"' },
      { kind: 'state', user: 'ann', session: 's1', key: 'topic', body: '"refunds"' },
    ]);
  });

  it('call the tier writer only for the tiers with changes', async () => {
    const appName = uniqueName('own');
    const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
    const created = await triggersCalledBy(
      `SELECT part FROM statehouse_create(${literal(appName)}, 'ann', 's1', 1, 'session:create', NULL, NULL, '[["topic","\\"a\\""]]')`,
      ['statehouse_write_tier'],
    );
    expect(created).toEqual({ statehouse_write_tier: 1 });
    const appended = await triggersCalledBy(
      `SELECT outcome FROM statehouse_append(${literal(appName)}, 'ann', 's1', NULL, 'e1', 'i', 'agent', 2, '{}', 'agent',
         NULL, '[["plan","\\"pro\\""]]', '[["topic","\\"b\\""]]')`,
      ['statehouse_write_tier'],
    );
    expect(appended).toEqual({ statehouse_write_tier: 2 });
  });

  it('still run for other writers of those rows', async () => {
    const appName = uniqueName('own');
    await database.db.client.$executeRaw(
      sql`INSERT INTO sessions (app_name, user_id, id, revision, last_seq, create_time, update_time)
          VALUES (${appName}, 'ann', 'x', 0, 0, 1, 1)`,
    );
    expect(await database.service.getAppSummary(appName)).toMatchObject({ sessionCount: 1, userCount: 1 });
    const [doc] = await database.db.client.$queryRaw<{ body: string }[]>(
      sql`SELECT body FROM search_docs WHERE app_name = ${appName} AND kind = 'session'`,
    );
    expect(doc?.body).toBe('ann x');
  });
});
