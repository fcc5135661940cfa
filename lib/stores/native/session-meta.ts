// Titles, labels and fork links, in session_meta, keyed by the session's
// name. A missing row is "no title, no labels, not a fork".
import { join, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { SqlExecutor } from '../../db/sql';
import { sessionNotFound } from '../../session-service/errors';
import { normalizeLabels, type Audit, type ForkLink, type MetaEdit, type SessionMeta } from '../../session-service/operations';
import type { SessionRef } from '../../session-service/store';
import { nowSeconds } from '../../session-service/events';
import type { SessionSummary } from '../../session-service/types';
import type { StoreContext } from './context';
import { containsFolded, toNumber, toNumberOrNull, type Dialect } from './dialect';
import { recordOperation } from './operation-log';

interface MetaRow {
  title: string | null;
  labels: string;
  fork_of_session: string | null;
  fork_of_seq: unknown;
}

interface Owner {
  appName: string;
  userId: string;
  sessionId: string;
}

/** Upserts the whole row inside the caller's transaction. */
export async function writeMeta(
  tx: SqlExecutor,
  owner: Owner,
  meta: Pick<SessionMeta, 'title' | 'labels' | 'forkedFrom'>,
  time: number,
): Promise<void> {
  const labels = JSON.stringify(normalizeLabels(meta.labels));
  await tx.$executeRaw(
    sql`INSERT INTO session_meta (app_name, user_id, session_id, title, labels, fork_of_session, fork_of_seq, update_time)
        VALUES (${owner.appName}, ${owner.userId}, ${owner.sessionId}, ${meta.title}, ${labels},
          ${meta.forkedFrom?.sessionId ?? null}, ${meta.forkedFrom?.atSeq ?? null}, ${time})
        ON CONFLICT (app_name, user_id, session_id) DO UPDATE SET title = excluded.title, labels = excluded.labels,
          fork_of_session = excluded.fork_of_session, fork_of_seq = excluded.fork_of_seq, update_time = excluded.update_time`,
  );
}

/** Removes the meta of sessions that are gone, inside the caller's transaction. */
export async function deleteMeta(tx: SqlExecutor, owner: Owner): Promise<void> {
  await tx.$executeRaw(
    sql`DELETE FROM session_meta WHERE app_name = ${owner.appName} AND user_id = ${owner.userId} AND session_id = ${owner.sessionId}`,
  );
}

async function sessionExists(tx: SqlExecutor, ref: SessionRef): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>(
    sql`SELECT 1 FROM sessions WHERE app_name = ${ref.appName} AND user_id = ${ref.userId} AND id = ${ref.sessionId}`,
  );
  return rows.length > 0;
}

async function readMeta(tx: SqlExecutor, ref: SessionRef): Promise<SessionMeta> {
  const [rows, forks] = await Promise.all([
    tx.$queryRaw<MetaRow[]>(
      sql`SELECT title, labels, fork_of_session, fork_of_seq FROM session_meta
          WHERE app_name = ${ref.appName} AND user_id = ${ref.userId} AND session_id = ${ref.sessionId}`,
    ),
    // Joined to sessions: a fork that was deleted is no longer listed.
    tx.$queryRaw<{ session_id: string; fork_of_seq: unknown }[]>(
      sql`SELECT m.session_id, m.fork_of_seq FROM session_meta m
          JOIN sessions s ON s.app_name = m.app_name AND s.user_id = m.user_id AND s.id = m.session_id
          WHERE m.app_name = ${ref.appName} AND m.user_id = ${ref.userId} AND m.fork_of_session = ${ref.sessionId}
          ORDER BY s.create_time, s.pk`,
    ),
  ]);
  const row = rows[0];
  const seq = toNumberOrNull(row?.fork_of_seq);
  const forkedFrom: ForkLink | null = row?.fork_of_session && seq !== null ? { sessionId: row.fork_of_session, atSeq: seq } : null;
  return {
    title: row?.title ?? null,
    labels: row ? (JSON.parse(row.labels) as string[]) : [],
    forkedFrom,
    forks: forks.map((fork) => ({ sessionId: fork.session_id, atSeq: toNumber(fork.fork_of_seq) })),
  };
}

export function getSessionMeta(ctx: StoreContext, ref: SessionRef): Promise<SessionMeta | null> {
  return ctx.read(async (tx) => ((await sessionExists(tx, ref)) ? readMeta(tx, ref) : null));
}

export function setSessionMeta(ctx: StoreContext, ref: SessionRef, edit: MetaEdit, audit: Audit): Promise<SessionMeta> {
  const now = nowSeconds();
  return ctx.write(async (tx) => {
    if (!(await sessionExists(tx, ref))) throw sessionNotFound(ref.sessionId);
    const current = await readMeta(tx, ref);
    const next = {
      title: edit.title === undefined ? current.title : edit.title?.trim() || null,
      labels: edit.labels === undefined ? current.labels : normalizeLabels(edit.labels),
      forkedFrom: current.forkedFrom,
    };
    await writeMeta(tx, ref, next, now);
    await recordOperation(tx, { ...ref, kind: 'meta', detail: { title: next.title, labels: next.labels } }, audit, now);
    return { ...current, ...next };
  });
}

/** A search's condition over `sessions s`: its title or one of its labels contains the text, case-insensitively. */
export function metaMatches(dialect: Dialect, text: string): Sql {
  return sql`EXISTS (SELECT 1 FROM session_meta m WHERE m.app_name = s.app_name AND m.user_id = s.user_id AND m.session_id = s.id
    AND (${containsFolded(dialect, 'm.title', text)} OR ${containsFolded(dialect, 'm.labels', text)}))`;
}

/** The page's sessions with their titles and labels (one query for the page), for the lists. */
export async function withMeta(tx: SqlExecutor, appName: string, sessions: SessionSummary[]): Promise<SessionSummary[]> {
  if (sessions.length === 0) return sessions;
  const pairs = join(sessions.map((session) => sql`(${session.userId}, ${session.id})`));
  const rows = await tx.$queryRaw<{ user_id: string; session_id: string; title: string | null; labels: string }[]>(
    sql`SELECT user_id, session_id, title, labels FROM session_meta WHERE app_name = ${appName} AND (user_id, session_id) IN (VALUES ${pairs})`,
  );
  const byKey = new Map(rows.map((row) => [JSON.stringify([row.user_id, row.session_id]), row]));
  return sessions.map((session) => {
    const row = byKey.get(JSON.stringify([session.userId, session.id]));
    return row ? { ...session, title: row.title, labels: JSON.parse(row.labels) as string[] } : session;
  });
}
