// Shared-tier rows no ADK would write: an app whose app_states blob cannot
// be read, and a user (of the scenario's app) whose user_states blob cannot
// be read, each with a copy of `alice/trip-paris` so that the broken tier
// has a session under it. The hostile-row suites check that every other app
// and user reads exactly as before and the broken tier answers its own error.
import { openAgentDb, type AgentDb, type Param } from '../../stores/adk/agent-db';
import { readSchema } from '../../stores/adk/schema';
import { HOSTILE_SOURCE, layoutOf } from './hostile';
import { fixtureDialect, type AdkFixtureKind } from './registry';
import type { FixtureStore } from './stores';

/** An app whose app-tier row cannot be read. */
export const BROKEN_APP = 'broken_tier_app';
/** A user of the scenario's app whose user-tier row cannot be read. */
export const BROKEN_USER = 'broken-tier-user';

/** Copies the rows of `table` matching `where` with some columns replaced (every other column as it is). */
async function copyRows(
  db: AgentDb,
  columns: string[],
  table: string,
  where: Record<string, Param>,
  replace: Record<string, Param>,
): Promise<void> {
  const select = columns.map((name) => (name in replace ? '?' : `"${name}"`));
  const params: Param[] = columns.flatMap((name) => (name in replace ? [replace[name] ?? null] : []));
  const conditions = Object.keys(where).map((name) => `"${name}" = ?`);
  await db.run(
    `INSERT INTO "${table}" (${columns.map((name) => `"${name}"`).join(', ')}) SELECT ${select.join(', ')} FROM "${table}" WHERE ${conditions.join(' AND ')}`,
    [...params, ...Object.values(where)],
  );
}

/** The broken blob this dialect's state column can hold: text that is not JSON, or (a JSON column) JSON that is not an object. */
export function brokenBlob(kind: AdkFixtureKind): string {
  return fixtureDialect(kind) === 'sqlite' ? '{broken' : '[1, 2]';
}

/** Writes BROKEN_APP and BROKEN_USER into the fixture's database, as the agent's owner would, outside any ADK. */
export async function writeHostileTiers(fixture: Pick<FixtureStore, 'locator'>, kind: AdkFixtureKind, appName: string): Promise<void> {
  const layout = layoutOf(kind);
  const { sessions: s, events: e, appStates: a, userStates: u } = layout;
  const db = await openAgentDb(fixture.locator);
  try {
    const schema = await readSchema(db);
    const columns = (table: string) => [...(schema.tables.get(table)?.keys() ?? [])];
    const source = { user: HOSTILE_SOURCE.userId, session: HOSTILE_SOURCE.sessionId };
    // The broken app: its tier, alice's tier there, and her session there.
    await copyRows(db, columns(a.table), a.table, { [a.appName]: appName }, { [a.appName]: BROKEN_APP });
    await copyRows(db, columns(u.table), u.table, { [u.appName]: appName, [u.userId]: source.user }, { [u.appName]: BROKEN_APP });
    // The broken user: their tier and a session of theirs.
    await copyRows(db, columns(u.table), u.table, { [u.appName]: appName, [u.userId]: source.user }, { [u.userId]: BROKEN_USER });
    for (const [to, user] of [
      [{ [s.appName]: BROKEN_APP }, { [e.appName]: BROKEN_APP }],
      [{ [s.userId]: BROKEN_USER }, { [e.userId]: BROKEN_USER }],
    ] as const) {
      await copyRows(db, columns(s.table), s.table, { [s.appName]: appName, [s.userId]: source.user, [s.id]: source.session }, to);
      await copyRows(db, columns(e.table), e.table, { [e.appName]: appName, [e.userId]: source.user, [e.sessionId]: source.session }, user);
    }
    const blob = brokenBlob(kind);
    await db.run(`UPDATE "${a.table}" SET "${a.state}" = ? WHERE "${a.appName}" = ?`, [blob, BROKEN_APP]);
    await db.run(`UPDATE "${u.table}" SET "${u.state}" = ? WHERE "${u.appName}" = ? AND "${u.userId}" = ?`, [blob, appName, BROKEN_USER]);
  } finally {
    await db.close();
  }
}
