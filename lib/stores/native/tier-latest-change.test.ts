// Each tier row names its key's latest history row (last_change_id). On
// PostgreSQL a statement trigger on state_changes kept it for every writer,
// writing each tier row a second time after the write that changed it, and
// joining to sessions by a plan that depended on the statistics. The
// function an append and a create call (statehouse_write_tier) now names it
// itself, in the statement that writes the tier row, and the trigger is left
// to the other writers of history. Counted in the write's own transaction,
// not timed.
import { sqltag as sql } from '@prisma/client/runtime/client';
import { describe, expect, it } from 'vitest';
import { testProviders } from '../../testing/databases';
import { uniqueName } from '../../testing/factories';
import { useTestDatabase } from '../../testing/use-test-database';

const providers = await testProviders();

interface Counts {
  trigger: number;
  sessionRowsUpdated: number;
  userRowsUpdated: number;
}

describe.skipIf(!providers.includes('postgresql'))('the latest change of each key, kept by the tier writes (PostgreSQL)', () => {
  const database = useTestDatabase('postgresql');

  /**
   * Runs the append and counts, in its own transaction, the trigger's calls and the tier rows updated: the
   * difference of the backend's counts before and after, which it flushes only outside a transaction.
   */
  async function appendCounting(appName: string, seq: number): Promise<Counts> {
    return database.db.client.$transaction(async (tx) => {
      const counts = async (): Promise<Counts> => {
        const [row] = await tx.$queryRaw<{ trigger: bigint | null; session_rows: bigint; user_rows: bigint }[]>(
          sql`SELECT pg_stat_get_xact_function_calls(CAST('statehouse_note_latest_changes' AS regproc)) AS trigger,
                pg_stat_get_xact_tuples_updated(CAST('session_state' AS regclass)) AS session_rows,
                pg_stat_get_xact_tuples_updated(CAST('user_state' AS regclass)) AS user_rows`,
        );
        return {
          trigger: Number(row?.trigger ?? 0),
          sessionRowsUpdated: Number(row?.session_rows ?? 0),
          userRowsUpdated: Number(row?.user_rows ?? 0),
        };
      };
      await tx.$executeRaw(sql`SET LOCAL track_functions = 'all'`);
      const before = await counts();
      await tx.$queryRaw(
        sql`SELECT outcome FROM statehouse_append(CAST(${appName} AS TEXT), 'u', 's', NULL, CAST(${`e${seq}`} AS TEXT), 'i', 'agent',
              CAST(${seq} AS DOUBLE PRECISION), '{}', 'agent', NULL, CAST('[["plan","\\"team\\""]]' AS JSON),
              CAST(${JSON.stringify([
                ['added', `"${seq}"`],
                ['topic', `"turn ${seq}"`],
              ])} AS JSON))`,
      );
      const after = await counts();
      return {
        trigger: after.trigger - before.trigger,
        sessionRowsUpdated: after.sessionRowsUpdated - before.sessionRowsUpdated,
        userRowsUpdated: after.userRowsUpdated - before.userRowsUpdated,
      };
    });
  }

  it('names each key’s latest change on create and append, writing each existing tier row once', async () => {
    const appName = uniqueName('latest');
    const ref = { appName, userId: 'u', sessionId: 's' };
    await database.service.createSession({ ...ref, state: { topic: 'start', 'user:plan': 'free', 'app:mode': 'a' } });
    const created = await database.service.getSessionTiers(ref);
    for (const entries of [created?.session, created?.user, created?.app])
      expect(entries?.map((e) => e.lastChange?.actor)).toEqual(['session:create']);

    // topic and plan exist: one update each. added is new: inserted, then named (one update).
    expect(await appendCounting(appName, 1)).toEqual({ trigger: 0, sessionRowsUpdated: 2, userRowsUpdated: 1 });
    const tiers = await database.service.getSessionTiers(ref);
    const session = Object.fromEntries((tiers?.session ?? []).map((e) => [e.key, e]));
    expect(session.topic).toMatchObject({ value: 'turn 1', lastChange: { eventId: 'e1', eventSeq: 1 } });
    expect(session.added).toMatchObject({ value: '1', lastChange: { eventId: 'e1', eventSeq: 1 } });
    expect(tiers?.user[0]).toMatchObject({ value: 'team', lastChange: { eventId: 'e1', eventSeq: 1 } });
    expect(tiers?.app[0]?.lastChange).toMatchObject({ actor: 'session:create' });

    // The history rows the latest changes name are the ones the reads list first.
    for (const [scope, key] of [
      ['session', 'topic'],
      ['user', 'plan'],
    ] as const) {
      const history = await database.service.getKeyHistory({ appName, scope, userId: 'u', sessionId: 's', key });
      expect(history.items[0]).toMatchObject({ eventId: 'e1', actor: 'agent' });
    }
  });

  it('is still kept by the trigger for history written outside the tier writes', async () => {
    const appName = uniqueName('latest');
    const ref = { appName, userId: 'u', sessionId: 's' };
    await database.service.createSession({ ...ref, state: { topic: 'start' } });
    await database.db.client.$executeRaw(
      sql`INSERT INTO state_changes (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
            source_user_id, source_session_id, event_id, event_seq, actor, time)
          VALUES (${appName}, 'session', 'u', 's', 'topic', '"start"', '"start"', 'u', 's', 'bulk-1', 7, 'bulk', 2)`,
    );
    const tiers = await database.service.getSessionTiers(ref);
    expect(tiers?.session[0]?.lastChange).toMatchObject({ actor: 'bulk', eventSeq: 7 });
  });
});
