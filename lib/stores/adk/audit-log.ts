// The EditAudit on Statehouse's own database (table store_edits): what
// Statehouse changed in an agent's store, by whom and why.
import { empty, join, sqltag as sql } from '@prisma/client/runtime/client';
import type { SqlClient } from '../../db/sql';
import type { AuditEntry, AuditQuery, EditAudit } from './base/audit';
import type { JsonValue, Scope } from '../../session-service/types';
import { boundLimit } from '../native/dialect';

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
const parsed = (text: unknown): JsonValue | undefined =>
  text === null || text === undefined ? undefined : (JSON.parse(String(text)) as JsonValue);
/** Edits read back per query; a key's history is short, a user's is paged by the caller. */
const MAX_EDITS = 10_000;

interface EditRow {
  pk: unknown;
  store_id: string;
  app_name: string;
  scope: string;
  user_id: string;
  session_id: string;
  key: string;
  old_value: unknown;
  new_value: unknown;
  actor: string;
  reason: string | null;
  event_id: string | null;
  time: unknown;
}

export class StoreEditLog implements EditAudit {
  constructor(private readonly client: SqlClient) {}

  async record(entries: AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map(
      (e) =>
        sql`(${e.storeId}, ${e.kind}, ${e.appName}, ${e.scope}, ${e.userId}, ${e.sessionId}, ${e.key}, ${json(e.oldValue)}, ${json(e.newValue)}, ${e.actor}, ${e.reason}, ${e.eventId}, ${e.time})`,
    );
    await this.client.$executeRaw(
      sql`INSERT INTO store_edits (store_id, kind, app_name, scope, user_id, session_id, key, old_value, new_value, actor, reason, event_id, time)
          VALUES ${join(rows)}`,
    );
  }

  async edits(query: AuditQuery): Promise<(AuditEntry & { id: number })[]> {
    const userClause = query.userId === undefined ? empty : sql`AND (scope = 'app' OR user_id = ${query.userId})`;
    const keyClause = query.key === undefined ? empty : sql`AND key = ${query.key}`;
    const rows = await this.client.$queryRaw<EditRow[]>(
      sql`SELECT pk, store_id, app_name, scope, user_id, session_id, key, old_value, new_value, actor, reason, event_id, time
          FROM store_edits
          WHERE store_id = ${query.storeId} AND kind = 'edit' AND app_name = ${query.appName} AND scope IN (${join(query.scopes)})
          ${userClause} ${keyClause}
          ORDER BY time DESC, pk DESC LIMIT ${boundLimit(MAX_EDITS)}`,
    );
    return rows.map((row) => ({
      id: Number(row.pk),
      storeId: row.store_id,
      kind: 'edit' as const,
      appName: row.app_name,
      scope: row.scope as Scope,
      userId: row.user_id,
      sessionId: row.session_id,
      key: row.key,
      oldValue: parsed(row.old_value),
      newValue: parsed(row.new_value),
      actor: row.actor,
      reason: row.reason,
      eventId: row.event_id,
      time: Number(row.time),
    }));
  }
}
