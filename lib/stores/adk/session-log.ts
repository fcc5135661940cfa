// The SessionLog on Statehouse's own database (tables store_session_meta and
// store_session_operations): titles, labels, fork links and the operations
// history of sessions in agents' stores, keyed by store id and session name.
import { join, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { SqlClient, SqlExecutor } from '../../db/sql';
import type { ForkLink, OperationQuery, OperationRecord } from '../../session-service/operations';
import type { SessionRef } from '../../session-service/store';
import type { Page } from '../../session-service/types';
import { boundLimit, containsFolded, type Dialect } from '../native/dialect';
import { readOperationPage } from '../operation-page';
import { metaKey, type KeptMeta, type SessionLog, type SessionLogChanges, type SessionName } from './base/session-log';

interface MetaRow {
  user_id: string;
  session_id: string;
  title: string | null;
  labels: string;
  fork_of_session: string | null;
  fork_of_seq: unknown;
}

const number = (value: unknown) => Number(value);

function keptMeta(row: MetaRow): KeptMeta {
  const seq = row.fork_of_seq === null || row.fork_of_seq === undefined ? null : number(row.fork_of_seq);
  return {
    title: row.title,
    labels: JSON.parse(row.labels) as string[],
    forkedFrom: row.fork_of_session !== null && seq !== null ? { sessionId: row.fork_of_session, atSeq: seq } : null,
  };
}

const META_COLUMNS = sql`user_id, session_id, title, labels, fork_of_session, fork_of_seq`;

export class StoreSessionLog implements SessionLog {
  constructor(
    private readonly client: SqlClient,
    private readonly dialect: Dialect,
  ) {}

  async meta(storeId: string, ref: SessionRef): Promise<KeptMeta | null> {
    const rows = await this.client.$queryRaw<MetaRow[]>(
      sql`SELECT ${META_COLUMNS} FROM store_session_meta
          WHERE store_id = ${storeId} AND app_name = ${ref.appName} AND user_id = ${ref.userId} AND session_id = ${ref.sessionId}`,
    );
    return rows[0] ? keptMeta(rows[0]) : null;
  }

  async forksOf(storeId: string, ref: SessionRef): Promise<ForkLink[]> {
    const rows = await this.client.$queryRaw<{ session_id: string; fork_of_seq: unknown }[]>(
      sql`SELECT session_id, fork_of_seq FROM store_session_meta
          WHERE store_id = ${storeId} AND app_name = ${ref.appName} AND user_id = ${ref.userId} AND fork_of_session = ${ref.sessionId}
          ORDER BY update_time, session_id`,
    );
    return rows.map((row) => ({ sessionId: row.session_id, atSeq: number(row.fork_of_seq) }));
  }

  async metaOf(storeId: string, appName: string, sessions: { userId: string; sessionId: string }[]): Promise<Map<string, KeptMeta>> {
    if (sessions.length === 0) return new Map();
    const pairs = join(sessions.map((session) => sql`(${session.userId}, ${session.sessionId})`));
    const rows = await this.client.$queryRaw<MetaRow[]>(
      sql`SELECT ${META_COLUMNS} FROM store_session_meta
          WHERE store_id = ${storeId} AND app_name = ${appName} AND (user_id, session_id) IN (VALUES ${pairs})`,
    );
    return new Map(rows.map((row) => [metaKey(row.user_id, row.session_id), keptMeta(row)]));
  }

  async matching(storeId: string, request: { appName: string; userId?: string; text: string; limit: number }): Promise<SessionName[]> {
    const user = request.userId === undefined ? sql`` : sql` AND user_id = ${request.userId}`;
    const rows = await this.client.$queryRaw<{ user_id: string; session_id: string }[]>(
      sql`SELECT user_id, session_id FROM store_session_meta WHERE store_id = ${storeId} AND app_name = ${request.appName}${user}
          AND (${containsFolded(this.dialect, 'title', request.text)} OR ${containsFolded(this.dialect, 'labels', request.text)})
          ORDER BY user_id, session_id LIMIT ${boundLimit(request.limit)}`,
    );
    return rows.map((row) => ({ userId: row.user_id, sessionId: row.session_id }));
  }

  async apply(storeId: string, changes: SessionLogChanges, time: number): Promise<void> {
    await this.client.$transaction(async (tx) => {
      for (const ref of changes.remove ?? []) await removeMeta(tx, storeId, ref);
      for (const { ref, meta } of changes.upsert ?? []) await writeMeta(tx, storeId, ref, meta, time);
      for (const { entry, audit } of changes.operations ?? []) {
        await tx.$executeRaw(
          sql`INSERT INTO store_session_operations (store_id, app_name, user_id, session_id, kind, actor, reason, detail, time)
              VALUES (${storeId}, ${entry.appName}, ${entry.userId ?? ''}, ${entry.sessionId ?? ''}, ${entry.kind}, ${audit.actor},
                ${audit.reason?.trim() || null}, ${JSON.stringify(entry.detail)}, ${time})`,
        );
      }
    });
  }

  async operations(storeId: string, query: OperationQuery): Promise<Page<OperationRecord>> {
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const conditions: Sql[] = [sql`store_id = ${storeId}`, sql`app_name = ${query.appName}`];
    if (query.userId !== undefined) conditions.push(sql`user_id = ${query.userId}`);
    if (query.sessionId !== undefined) conditions.push(sql`session_id = ${query.sessionId}`);
    const where = join(conditions, ' AND ');
    return readOperationPage(this.client, 'store_session_operations', where, limit, offset);
  }
}

async function writeMeta(tx: SqlExecutor, storeId: string, ref: SessionRef, meta: KeptMeta, time: number): Promise<void> {
  await tx.$executeRaw(
    sql`INSERT INTO store_session_meta (store_id, app_name, user_id, session_id, title, labels, fork_of_session, fork_of_seq, update_time)
        VALUES (${storeId}, ${ref.appName}, ${ref.userId}, ${ref.sessionId}, ${meta.title}, ${JSON.stringify(meta.labels)},
          ${meta.forkedFrom?.sessionId ?? null}, ${meta.forkedFrom?.atSeq ?? null}, ${time})
        ON CONFLICT (store_id, app_name, user_id, session_id) DO UPDATE SET title = excluded.title, labels = excluded.labels,
          fork_of_session = excluded.fork_of_session, fork_of_seq = excluded.fork_of_seq, update_time = excluded.update_time`,
  );
}

async function removeMeta(tx: SqlExecutor, storeId: string, ref: SessionRef): Promise<void> {
  await tx.$executeRaw(
    sql`DELETE FROM store_session_meta
        WHERE store_id = ${storeId} AND app_name = ${ref.appName} AND user_id = ${ref.userId} AND session_id = ${ref.sessionId}`,
  );
}
