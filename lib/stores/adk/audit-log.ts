// The EditAudit on Statehouse's own database (table store_edits): what
// Statehouse changed in an agent's store, by whom and why.
import { join, sqltag as sql } from '@prisma/client/runtime/client';
import type { SqlClient } from '../../db/sql';
import type { AuditEntry, EditAudit } from './base/audit';

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

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
}
