// Retention: deleting sessions, or events of one session, for good. A dry
// run counts with the same conditions the deletion uses, in a transaction
// that writes nothing, so the counts it shows are what a real run deletes
// (unless the data changes in between). Every real run is recorded with its
// actor, reason and counts.
//
// State is not rewound: deleting events leaves every tier as it is (their
// changes stay in the history too); deleting a session removes its session
// tier and that tier's history, while the app and user tiers it wrote stay.
import { empty, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { SqlExecutor } from '../../db/sql';
import { invalidInput, sessionNotFound } from '../../session-service/errors';
import type { Audit, PruneCount, PruneTarget } from '../../session-service/operations';
import type { SessionRef } from '../../session-service/store';
import { nowSeconds } from '../../session-service/events';
import type { JsonObject } from '../../session-service/types';
import type { StoreContext } from './context';
import { toNumber } from './dialect';
import { recordOperation } from './operation-log';

const DAY_SECONDS = 86_400;

async function sessionPk(tx: SqlExecutor, ref: SessionRef): Promise<number> {
  const [row] = await tx.$queryRaw<{ pk: unknown }[]>(
    sql`SELECT pk FROM sessions WHERE app_name = ${ref.appName} AND user_id = ${ref.userId} AND id = ${ref.sessionId}`,
  );
  if (!row) throw sessionNotFound(ref.sessionId);
  return toNumber(row.pk);
}

/** Removes sessions matching `where` (over `sessions s`) with their events, state, session-tier history and meta. */
async function deleteSessions(tx: SqlExecutor, where: Sql): Promise<PruneCount> {
  const doomed = await tx.$queryRaw<{ pk: unknown; app_name: string; user_id: string; id: string }[]>(
    sql`SELECT s.pk, s.app_name, s.user_id, s.id FROM sessions s WHERE ${where}`,
  );
  let events = 0;
  for (const session of doomed) {
    const [counted] = await tx.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM events WHERE session_pk = ${session.pk}`);
    events += toNumber(counted?.n ?? 0);
    await tx.$executeRaw(sql`DELETE FROM sessions WHERE pk = ${session.pk}`);
    await tx.$executeRaw(
      sql`DELETE FROM state_changes WHERE app_name = ${session.app_name} AND scope = 'session'
          AND owner_user_id = ${session.user_id} AND owner_session_id = ${session.id}`,
    );
    await tx.$executeRaw(
      sql`DELETE FROM session_meta WHERE app_name = ${session.app_name} AND user_id = ${session.user_id} AND session_id = ${session.id}`,
    );
  }
  return { sessions: doomed.length, events };
}

/** Removes one session's events matching `where` (over `events e`); the session's revision moves on, so loaded copies are stale. */
async function deleteEvents(tx: SqlExecutor, pk: number, where: Sql): Promise<PruneCount> {
  const deleted = await tx.$executeRaw(sql`DELETE FROM events WHERE session_pk = ${pk} AND ${where}`);
  if (deleted > 0) await tx.$executeRaw(sql`UPDATE sessions SET revision = revision + 1 WHERE pk = ${pk}`);
  return { sessions: 0, events: deleted };
}

async function run(tx: SqlExecutor, target: PruneTarget, now: number): Promise<{ count: PruneCount; detail: JsonObject }> {
  switch (target.kind) {
    case 'session': {
      const { ref } = target;
      await sessionPk(tx, ref);
      const count = await deleteSessions(tx, sql`s.app_name = ${ref.appName} AND s.user_id = ${ref.userId} AND s.id = ${ref.sessionId}`);
      return { count, detail: { target: 'session' } };
    }
    case 'invocation': {
      if (!target.invocationId.trim()) throw invalidInput('invocationId: required.');
      const pk = await sessionPk(tx, target.ref);
      const count = await deleteEvents(tx, pk, sql`invocation_id = ${target.invocationId}`);
      if (count.events === 0)
        throw invalidInput(`invocationId: session ${target.ref.sessionId} has no events of invocation ${target.invocationId}.`);
      return { count, detail: { target: 'invocation', invocationId: target.invocationId } };
    }
    case 'eventsBefore': {
      if (!Number.isFinite(target.before)) throw invalidInput('before: must be a time in seconds since the epoch.');
      const pk = await sessionPk(tx, target.ref);
      const count = await deleteEvents(tx, pk, sql`timestamp < ${target.before}`);
      return { count, detail: { target: 'eventsBefore', before: target.before } };
    }
    case 'idleSessions': {
      if (!Number.isFinite(target.idleDays) || target.idleDays <= 0) throw invalidInput('idleDays: must be a positive number of days.');
      const cutoff = (target.now ?? now) - target.idleDays * DAY_SECONDS;
      const byUser = target.userId === undefined ? empty : sql` AND s.user_id = ${target.userId}`;
      const count = await deleteSessions(tx, sql`s.app_name = ${target.appName}${byUser} AND s.update_time < ${cutoff}`);
      return { count, detail: { target: 'idleSessions', idleDays: target.idleDays, cutoff } };
    }
  }
}

/** Thrown inside a dry run's transaction so that it rolls back; carries the counts out. */
class DryRun extends Error {
  constructor(readonly count: PruneCount) {
    super('dry run: rolled back');
  }
}

export async function prune(ctx: StoreContext, target: PruneTarget, options: Audit & { dryRun: boolean }): Promise<PruneCount> {
  const now = nowSeconds();
  if (!options.dryRun && !options.reason?.trim()) throw invalidInput('reason: required for every deletion.');
  try {
    return await ctx.write(async (tx) => {
      const { count, detail } = await run(tx, target, now);
      if (options.dryRun) throw new DryRun(count);
      const where = target.kind === 'idleSessions' ? { appName: target.appName, userId: target.userId } : target.ref;
      await recordOperation(tx, { ...where, kind: 'prune', detail: { ...detail, ...count } }, options, now);
      return count;
    });
  } catch (error) {
    if (error instanceof DryRun) return error.count;
    throw error;
  }
}
