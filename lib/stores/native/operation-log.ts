// The session operations history: one row per fork, import, title edit or
// deletion, naming who did it and why. Rows are never updated or deleted
// by the operations themselves (clearing an app's data removes them).
import { join, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { SqlExecutor } from '../../db/sql';
import type { Audit, OperationQuery, OperationRecord } from '../../session-service/operations';
import type { Page } from '../../session-service/types';
import type { StoreContext } from './context';
import { readOperationPage, type OperationEntry } from '../operation-page';

export async function recordOperation(tx: SqlExecutor, entry: OperationEntry, audit: Audit, time: number): Promise<void> {
  await tx.$executeRaw(
    sql`INSERT INTO session_operations (app_name, user_id, session_id, kind, actor, reason, detail, time)
        VALUES (${entry.appName}, ${entry.userId ?? ''}, ${entry.sessionId ?? ''}, ${entry.kind}, ${audit.actor},
          ${audit.reason?.trim() || null}, ${JSON.stringify(entry.detail)}, ${time})`,
  );
}

/** Newest first. A user's query includes the operations over their sessions; an app's, every one of the app. */
export async function listOperations(ctx: StoreContext, query: OperationQuery): Promise<Page<OperationRecord>> {
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const conditions: Sql[] = [sql`app_name = ${query.appName}`];
  if (query.userId !== undefined) conditions.push(sql`user_id = ${query.userId}`);
  if (query.sessionId !== undefined) conditions.push(sql`session_id = ${query.sessionId}`);
  const where = join(conditions, ' AND ');
  return ctx.read((tx) => readOperationPage(tx, 'session_operations', where, limit, offset));
}
