// Retention on a store an ADK writes: whole sessions only, deleted as that
// ADK deletes a session (its events, then its row), in one transaction. A
// dry run picks the sessions by the same rule and counts their events the
// same way, so it shows what the deletion then does (unless the agent writes
// in between). Events of a session are not deleted: no ADK deletes events,
// and the session's state would keep what the deleted events set.
import { invalidInput, sessionNotFound, unsupported } from '../../../session-service/errors';
import { nowSeconds } from '../../../session-service/events';
import type { Audit, PruneCount, PruneTarget } from '../../../session-service/operations';
import type { SessionRef } from '../../../session-service/store';
import type { JsonObject } from '../../../session-service/types';
import type { AgentQuery } from '../agent-db';
import type { AdkStoreContext } from './context';
import { eventCount, sessionRow } from './rows';

const DAY_SECONDS = 86_400;

/** Why an ADK store does not delete some of a session's events (the console says so instead of offering it). */
export const EVENT_PRUNE_REFUSED =
  'Deleting some of a session’s events is not something any ADK does: the session’s state would keep what those events set. Delete the whole session instead.';

/** Deletes the session's events and its row, as the ADK's delete_session removes them; returns how many events went. */
export async function deleteSessionRows(ctx: AdkStoreContext, qx: AgentQuery, ref: SessionRef): Promise<number> {
  const { e, s } = ctx;
  // The session row first, as every ADK's append locks it (before or instead of the events).
  if (!(await sessionRow(ctx, qx, ref, true))) return 0;
  const events = await eventCount(ctx, qx, ref);
  await qx.run(`DELETE FROM ${e.t} WHERE ${e.app} = ? AND ${e.user} = ? AND ${e.session} = ?`, [ref.appName, ref.userId, ref.sessionId]);
  await qx.run(`DELETE FROM ${s.t} WHERE ${s.app} = ? AND ${s.user} = ? AND ${s.id} = ?`, [ref.appName, ref.userId, ref.sessionId]);
  return events;
}

/** The sessions the target names, read now; a session whose update time cannot be read is never idle. */
async function doomed(ctx: AdkStoreContext, qx: AgentQuery, target: PruneTarget, now: number): Promise<SessionRef[]> {
  if (target.kind === 'session') {
    if (!(await sessionRow(ctx, qx, target.ref))) throw sessionNotFound(target.ref.sessionId);
    return [target.ref];
  }
  if (target.kind !== 'idleSessions') throw unsupported(EVENT_PRUNE_REFUSED);
  if (!Number.isFinite(target.idleDays) || target.idleDays <= 0) throw invalidInput('idleDays: must be a positive number of days.');
  const cutoff = (target.now ?? now) - target.idleDays * DAY_SECONDS;
  const { t, app, user, id, updateRead } = ctx.s;
  const rows = await qx.all(
    `SELECT ${id} AS id, ${user} AS u, ${updateRead} AS t FROM ${t} WHERE ${app} = ?${target.userId === undefined ? '' : ` AND ${user} = ?`}`,
    target.userId === undefined ? [target.appName] : [target.appName, target.userId],
  );
  return rows
    .filter((row) => {
      const seconds = ctx.rows.secondsOrNull(row.t, 'sessionUpdate');
      return seconds !== null && seconds < cutoff;
    })
    .map((row) => ({ appName: target.appName, userId: String(row.u), sessionId: String(row.id) }));
}

function detailOf(target: PruneTarget, now: number): JsonObject {
  return target.kind === 'idleSessions'
    ? { target: 'idleSessions', idleDays: target.idleDays, cutoff: (target.now ?? now) - target.idleDays * DAY_SECONDS }
    : { target: target.kind };
}

export async function prune(ctx: AdkStoreContext, target: PruneTarget, options: Audit & { dryRun: boolean }): Promise<PruneCount> {
  if (target.kind === 'invocation' || target.kind === 'eventsBefore') throw unsupported(EVENT_PRUNE_REFUSED);
  ctx.writes();
  if (!options.dryRun && !options.reason?.trim()) throw invalidInput('reason: required for every deletion.');
  const now = nowSeconds();
  if (options.dryRun) {
    return ctx.db.read(async (qx) => {
      const refs = await doomed(ctx, qx, target, now);
      let events = 0;
      for (const ref of refs) events += await eventCount(ctx, qx, ref);
      return { sessions: refs.length, events };
    });
  }
  const { count, refs } = await ctx.db.write(async (qx) => {
    const refs = await doomed(ctx, qx, target, now);
    let events = 0;
    for (const ref of refs) events += await deleteSessionRows(ctx, qx, ref);
    return { count: { sessions: refs.length, events }, refs };
  });
  const where = target.kind === 'idleSessions' ? { appName: target.appName, userId: target.userId } : target.ref;
  await ctx.sessionLog?.apply(
    ctx.info.id,
    { remove: refs, operations: [{ entry: { ...where, kind: 'prune', detail: { ...detailOf(target, now), ...count } }, audit: options }] },
    now,
  );
  return count;
}
