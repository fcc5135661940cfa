// Error events of the native store: an event with errorCode or errorMessage
// set in its stored JSON. Read with the database's own JSON functions, so a
// text part that merely mentions "errorCode" does not count.
import { join, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { chunks, toNumber, type Dialect } from './dialect';
import type { StoreContext } from './context';

/** The condition on an `events` row aliased `e`. */
export function isErrorEvent(dialect: Dialect): Sql {
  return dialect === 'postgresql'
    ? sql`((e.data::json ->> 'errorCode') IS NOT NULL OR (e.data::json ->> 'errorMessage') IS NOT NULL)`
    : sql`(json_extract(e.data, '$.errorCode') IS NOT NULL OR json_extract(e.data, '$.errorMessage') IS NOT NULL)`;
}

/** The condition on a `sessions` row aliased `s`: it has an error event. */
export function hasErrorEvent(dialect: Dialect): Sql {
  return sql`EXISTS (SELECT 1 FROM events e WHERE e.session_pk = s.pk AND ${isErrorEvent(dialect)})`;
}

const BATCH = 200;

/** Error events per session (key `userId\0sessionId`); sessions without any are left out. */
export async function errorEventCounts(
  ctx: StoreContext,
  appName: string,
  sessions: { userId: string; sessionId: string }[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const batch of chunks(sessions, BATCH)) {
    if (batch.length === 0) continue;
    const pairs = join(
      batch.map((one) => sql`(s.user_id = ${one.userId} AND s.id = ${one.sessionId})`),
      ' OR ',
    );
    const rows = await ctx.client.$queryRaw<{ user_id: string; id: string; n: unknown }[]>(
      sql`SELECT s.user_id, s.id, COUNT(*) AS n FROM sessions s JOIN events e ON e.session_pk = s.pk
          WHERE s.app_name = ${appName} AND (${pairs}) AND ${isErrorEvent(ctx.dialect)}
          GROUP BY s.user_id, s.id`,
    );
    for (const row of rows) counts.set(`${row.user_id}\u0000${row.id}`, toNumber(row.n));
  }
  return counts;
}
