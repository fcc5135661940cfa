// A page of the operations log, from Statehouse's own table for its store or
// from the one it keeps for the ADK stores it opens: both have these columns.
import { raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { SqlExecutor } from '../db/sql';
import type { OperationKind, OperationRecord } from '../session-service/operations';
import type { JsonObject, Page } from '../session-service/types';
import { boundLimit, toNumber } from './native/dialect';

/** An operation to record, in either log. */
export interface OperationEntry {
  appName: string;
  userId?: string;
  sessionId?: string;
  kind: OperationKind;
  detail: JsonObject;
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

/** Newest first, with the total the conditions match. */
export async function readOperationPage(
  tx: SqlExecutor,
  table: 'session_operations' | 'store_session_operations',
  where: Sql,
  limit: number,
  offset: number,
): Promise<Page<OperationRecord>> {
  const from = raw(table);
  const [rows, counted] = await Promise.all([
    tx.$queryRaw<OperationRow[]>(
      sql`SELECT id, app_name, user_id, session_id, kind, actor, reason, detail, time FROM ${from}
          WHERE ${where} ORDER BY id DESC LIMIT ${boundLimit(limit)} OFFSET ${offset}`,
    ),
    tx.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM ${from} WHERE ${where}`),
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
}
