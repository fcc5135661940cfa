// Titles, labels, fork links and the operations history of an ADK store's
// sessions, kept in Statehouse's own database (session-log.ts): the agent's
// tables have no room for them, and are never written for them.
import { sessionNotFound, unsupported } from '../../../session-service/errors';
import { nowSeconds } from '../../../session-service/events';
import {
  normalizeLabels,
  type Audit,
  type MetaEdit,
  type OperationQuery,
  type OperationRecord,
  type SessionMeta,
} from '../../../session-service/operations';
import type { SessionRef } from '../../../session-service/store';
import type { Page } from '../../../session-service/types';
import type { AdkStoreContext } from './context';
import { sessionRow } from './rows';
import type { SessionLog } from './session-log';

/** Why titles and labels cannot be kept for this store. */
export const SESSION_LOG_MISSING =
  'Statehouse keeps titles, labels and the operations history in its own database, which this store was opened without.';

function sessionLog(ctx: AdkStoreContext): SessionLog {
  if (!ctx.sessionLog) throw unsupported(SESSION_LOG_MISSING);
  return ctx.sessionLog;
}

async function exists(ctx: AdkStoreContext, ref: SessionRef): Promise<boolean> {
  return (await ctx.db.read((qx) => sessionRow(ctx, qx, ref))) !== null;
}

/** Null for an absent session, and when the store keeps no titles (opened without Statehouse's own database). */
export async function getSessionMeta(ctx: AdkStoreContext, ref: SessionRef): Promise<SessionMeta | null> {
  const log = ctx.sessionLog;
  if (!log || !(await exists(ctx, ref))) return null;
  const [kept, forks] = await Promise.all([log.meta(ctx.info.id, ref), log.forksOf(ctx.info.id, ref)]);
  // The agent deletes sessions without telling Statehouse: a fork that is gone is no longer listed.
  const live = await Promise.all(forks.map((fork) => exists(ctx, { ...ref, sessionId: fork.sessionId })));
  return {
    title: kept?.title ?? null,
    labels: kept?.labels ?? [],
    forkedFrom: kept?.forkedFrom ?? null,
    forks: forks.filter((_, index) => live[index]),
  };
}

export async function setSessionMeta(ctx: AdkStoreContext, ref: SessionRef, edit: MetaEdit, audit: Audit): Promise<SessionMeta> {
  const log = sessionLog(ctx);
  const current = await getSessionMeta(ctx, ref);
  if (!current) throw sessionNotFound(ref.sessionId);
  const next = {
    title: edit.title === undefined ? current.title : edit.title?.trim() || null,
    labels: edit.labels === undefined ? current.labels : normalizeLabels(edit.labels),
    forkedFrom: current.forkedFrom,
  };
  await log.apply(
    ctx.info.id,
    {
      upsert: [{ ref, meta: next }],
      operations: [{ entry: { ...ref, kind: 'meta', detail: { title: next.title, labels: next.labels } }, audit }],
    },
    nowSeconds(),
  );
  return { ...current, ...next };
}

export async function listOperations(ctx: AdkStoreContext, query: OperationQuery): Promise<Page<OperationRecord>> {
  return sessionLog(ctx).operations(ctx.info.id, query);
}
