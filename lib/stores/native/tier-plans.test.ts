// The state read must not depend on the planner's statistics. Right after a
// bulk write, before ANALYZE (autovacuum may take minutes), PostgreSQL once
// answered a 10,000-event session's state in 155 ms instead of 2 ms: a "last
// change per key" subquery chose the wrong state_changes index. Each tier
// row now names its latest history row, so the plan is a primary-key lookup
// per key whatever the statistics say. A plan shape check, not a timing.
import { raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { describe, expect, it } from 'vitest';
import { testProviders } from '../../testing/databases';
import { uniqueName } from '../../testing/factories';
import { useTestDatabase } from '../../testing/use-test-database';
import { appEntriesSql, sessionEntriesSql, userEntriesSql } from './session-reads';

const providers = await testProviders();
const KEYS = 44;
const HISTORY_ROWS = 30_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

describe.skipIf(!providers.includes('postgresql'))('the state read after a bulk write, before ANALYZE (PostgreSQL)', () => {
  const database = useTestDatabase('postgresql');

  async function planOf(query: Sql): Promise<PlanNode[]> {
    const rows = await database.db.client.$queryRaw<Record<string, unknown>[]>(sql`EXPLAIN (FORMAT JSON) ${query}`);
    const cell = Object.values(rows[0] ?? {})[0];
    const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: PlanNode }[];
    return nodesOf(plan[0]?.Plan as PlanNode);
  }

  it('reads each key’s latest change by primary key, and the right one', async () => {
    const appName = uniqueName('plan');
    const ref = { appName, userId: 'u', sessionId: 's' };
    const state: Record<string, number> = {};
    for (let k = 0; k < KEYS; k++) Object.assign(state, { [`k${k}`]: 0, [`user:u${k}`]: 0, [`app:a${k}`]: 0 });
    await database.service.createSession({ ...ref, state });
    const client = database.db.client;
    await client.$executeRaw(sql`ALTER TABLE state_changes SET (autovacuum_enabled = false)`);
    // The bulk write: 30,000 history rows per tier over the 44 keys, as a long session's events leave them.
    for (const [scope, owner, session, prefix] of [
      ['session', 'u', 's', 'k'],
      ['user', 'u', '', 'u'],
      ['app', '', '', 'a'],
    ] as const) {
      await client.$executeRaw(
        sql`INSERT INTO state_changes (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
              source_user_id, source_session_id, event_id, event_seq, actor, time)
            SELECT ${appName}, ${scope}, ${owner}, ${session}, ${prefix} || (n % ${KEYS}), '0', CAST(n AS TEXT),
              'u', 's', 'e' || n, n, 'bulk', n FROM generate_series(1, ${HISTORY_ROWS}) AS n`,
      );
    }
    const pk = (await client.$queryRaw<{ pk: number }[]>(sql`SELECT pk FROM sessions WHERE app_name = ${appName}`))[0]?.pk ?? 0;
    for (const query of [sessionEntriesSql(Number(pk)), userEntriesSql(appName, 'u'), appEntriesSql(appName)]) {
      const nodes = await planOf(query);
      const history = nodes.filter((n) => n['Relation Name'] === 'state_changes');
      expect(history.length).toBeGreaterThan(0);
      for (const node of history) expect([node['Node Type'], node['Index Name']]).toEqual(['Index Scan', 'state_changes_pkey']);
      expect(nodes.filter((n) => n['Parent Relationship'] === 'SubPlan' || n['Parent Relationship'] === 'InitPlan')).toEqual([]);
    }
    const tiers = await database.service.getSessionTiers(ref);
    const last = HISTORY_ROWS - ((HISTORY_ROWS - 1) % KEYS); // the last n with n % KEYS == 1
    for (const entries of [tiers?.session, tiers?.user, tiers?.app]) {
      const entry = entries?.find((e) => e.key.endsWith('1') && e.key.length === 2);
      expect(entry?.lastChange).toMatchObject({ actor: 'bulk', eventSeq: last });
    }
    await client.$executeRaw(raw('ALTER TABLE state_changes RESET (autovacuum_enabled)'));
  });
});
