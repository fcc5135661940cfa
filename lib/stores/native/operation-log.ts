// The session operations history: one row per fork, import, title edit or
// deletion, naming who did it and why. Rows are never updated or deleted
// by the operations themselves (clearing an app's data removes them).
import { join, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { SqlExecutor } from '../../db/sql';
import type { Audit, OperationKind, OperationQuery, OperationRecord } from '../../session-service/operations';
import type { JsonObject, Page } from '../../session-service/types';
import type { StoreContext } from './context';
import { toNumber } from './dialect';

export interface OperationEntry {
  appName: string;
  userId?: string;
  sessionId?: string;
  kind: OperationKind;
  detail: JsonObject;
}

export async function recordOperation(tx: SqlExecutor, entry: OperationEntry, audit: Audit, time: number): Promise<void> {
  await tx.$executeRaw(
    sql`INSERT INTO session_operations (app_name, user_id, session_id, kind, actor, reason, detail, time)
        VALUES (${entry.appName}, ${entry.userId ?? ''}, ${entry.sessionId ?? ''}, ${entry.kind}, ${audit.actor},
          ${audit.reason?.trim() || null}, ${JSON.stringify(entry.detail)}, ${time})`,
  );
}

interface OperationRow {
  id: unknown;
  app_name: string;
  user_id: string;
  session_id: string;
  kind: string;
  actor: string;
  reason: string | null;
  detail: string;
  time: unknown;
}

/** Newest first. A user's query includes the operations over their sessions; an app's, every one of the app. */
export async function listOperations(ctx: StoreContext, query: OperationQuery): Promise<Page<OperationRecord>> {
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const conditions: Sql[] = [sql`app_name = ${query.appName}`];
  if (query.userId !== undefined) conditions.push(sql`user_id = ${query.userId}`);
  if (query.sessionId !== undefined) conditions.push(sql`session_id = ${query.sessionId}`);
  const where = join(conditions, ' AND ');
  return ctx.read(async (tx) => {
    const [rows, counted] = await Promise.all([
      tx.$queryRaw<OperationRow[]>(
        sql`SELECT id, app_name, user_id, session_id, kind, actor, reason, detail, time FROM session_operations
            WHERE ${where} ORDER BY id DESC LIMIT ${limit} OFFSET ${offset}`,
      ),
      tx.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM session_operations WHERE ${where}`),
    ]);
    return {
      items: rows.map((row) => ({
        id: toNumber(row.id),
        appName: row.app_name,
        userId: row.user_id,
        sessionId: row.session_id,
        kind: row.kind as OperationKind,
        actor: row.actor,
        reason: row.reason,
        detail: JSON.parse(row.detail) as JsonObject,
        time: toNumber(row.time),
      })),
      total: toNumber(counted[0]?.n ?? 0),
    };
  });
}
