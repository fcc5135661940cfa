// The AuditLog over Statehouse's own database: each table that records
// edits or operations is read with the same filters, newest first, as far as
// the page reaches; the rows are merged by time. Every source is counted
// with the same filters, so the total is exact.
import { join, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { SqlClient } from '../../db/sql';
import { MAX_AUDIT_DEPTH, type AuditLog, type AuditLogQuery, type AuditRecord, type AuditSource } from '../../session-service/audit-log';
import { NATIVE_STORE_ID } from '../../session-service/notes';
import { scopeOfKey } from '../../session-service/scope';
import type { Page, Scope } from '../../session-service/types';
import { boundLimit, toNumber } from '../native/dialect';

const DEFAULT_LIMIT = 50;

interface Row {
  row_id: unknown;
  action: string;
  time: unknown;
  actor: string;
  app_name: string;
  user_id: string;
  session_id: string;
  scope: string | null;
  key: string | null;
  old_value: string | null;
  new_value: string | null;
  reason: string | null;
  detail: string | null;
}

/** One table's rows as audit records: the SELECT list (with the Row columns), its table, and its own conditions. */
interface Source {
  source: AuditSource;
  /** Prefix of the record ids. */
  name: string;
  select: Sql;
  from: Sql;
  where: Sql[];
  /** Column expressions the filters apply to; null: the filter excludes this source entirely. */
  columns: { time: Sql; actor: Sql; app: Sql; user: Sql; key: Sql | null; scope: Sql | null };
}

/** A table of session operations (fork, rewind, prune, import...), the native store's or an ADK store's. */
function operationSource(name: string, table: Sql, where: Sql[]): Source {
  return {
    source: 'operation',
    name,
    select: sql`id AS row_id, kind AS action, time, actor, app_name, user_id, session_id, NULL AS scope, NULL AS key,
                NULL AS old_value, NULL AS new_value, reason, detail`,
    from: table,
    where,
    columns: { time: sql`time`, actor: sql`actor`, app: sql`app_name`, user: sql`user_id`, key: null, scope: null },
  };
}

function sourcesFor(storeId: string): Source[] {
  const sources: Source[] = [];
  const native = storeId === NATIVE_STORE_ID;
  if (native) {
    sources.push({
      source: 'edit',
      name: 'edit',
      select: sql`id AS row_id, 'edit' AS action, time, actor, app_name, owner_user_id AS user_id, '' AS session_id, scope, key,
                  old_value, new_value, reason, NULL AS detail`,
      from: sql`state_changes`,
      // A support edit: no event caused it; a session's creation writes its initial keys as 'session:create'.
      where: [sql`event_id IS NULL`, sql`scope IN ('app', 'user')`, sql`actor <> 'session:create'`],
      columns: { time: sql`time`, actor: sql`actor`, app: sql`app_name`, user: sql`owner_user_id`, key: sql`key`, scope: sql`scope` },
    });
    sources.push(operationSource('operation', sql`session_operations`, []));
  } else {
    sources.push({
      source: 'edit',
      name: 'store-edit',
      select: sql`pk AS row_id, kind AS action, time, actor, app_name, user_id, session_id, scope, key,
                  old_value, new_value, reason, event_id AS detail`,
      from: sql`store_edits`,
      where: [sql`store_id = ${storeId}`],
      columns: { time: sql`time`, actor: sql`actor`, app: sql`app_name`, user: sql`user_id`, key: sql`key`, scope: sql`scope` },
    });
    sources.push(operationSource('store-operation', sql`store_session_operations`, [sql`store_id = ${storeId}`]));
  }
  sources.push({
    source: 'note',
    name: 'note',
    select: sql`id AS row_id, 'note added' AS action, time, author AS actor, app_name, user_id, session_id, NULL AS scope, NULL AS key,
                NULL AS old_value, NULL AS new_value, NULL AS reason, text AS detail`,
    from: sql`session_notes`,
    where: [sql`store_id = ${storeId}`],
    columns: { time: sql`time`, actor: sql`author`, app: sql`app_name`, user: sql`user_id`, key: null, scope: null },
  });
  sources.push({
    source: 'note',
    name: 'note-removed',
    select: sql`id AS row_id, 'note removed' AS action, removed_time AS time, removed_by AS actor, app_name, user_id, session_id,
                NULL AS scope, NULL AS key, NULL AS old_value, NULL AS new_value, NULL AS reason, text AS detail`,
    from: sql`session_notes`,
    where: [sql`store_id = ${storeId}`, sql`removed_by IS NOT NULL`],
    columns: { time: sql`removed_time`, actor: sql`removed_by`, app: sql`app_name`, user: sql`user_id`, key: null, scope: null },
  });
  sources.push({
    source: 'send',
    name: 'send',
    select: sql`id AS row_id, 'message sent' AS action, start_time AS time, actor, app_name, user_id, session_id, NULL AS scope,
                NULL AS key, NULL AS old_value, NULL AS new_value, outcome AS reason, message AS detail`,
    from: sql`agent_sends`,
    where: [sql`store_id = ${storeId}`],
    columns: { time: sql`start_time`, actor: sql`actor`, app: sql`app_name`, user: sql`user_id`, key: null, scope: null },
  });
  return sources;
}

/** The source's conditions with the query's filters, or null when the query excludes the source. */
function conditions(source: Source, query: AuditLogQuery): Sql[] | null {
  const { columns } = source;
  const where = [...source.where];
  if (query.actor !== undefined) where.push(sql`${columns.actor} = ${query.actor}`);
  if (query.appName !== undefined) where.push(sql`${columns.app} = ${query.appName}`);
  if (query.userId !== undefined) where.push(sql`${columns.user} = ${query.userId}`);
  if (query.since !== undefined) where.push(sql`${columns.time} >= ${query.since}`);
  if (query.until !== undefined) where.push(sql`${columns.time} <= ${query.until}`);
  if (query.key !== undefined) {
    if (!columns.key || !columns.scope) return null;
    const { scope, key } = scopeOfKey(query.key);
    if (scope === 'app' || scope === 'user') where.push(sql`${columns.scope} = ${scope} AND ${columns.key} = ${key}`);
    else where.push(sql`${columns.key} = ${query.key}`);
  }
  return where;
}

const whereOf = (parts: Sql[]) => (parts.length === 0 ? sql`1 = 1` : join(parts, ' AND '));

function recordOf(source: Source, row: Row): AuditRecord {
  return {
    id: `${source.name}:${toNumber(row.row_id)}`,
    source: row.action === 'append' ? 'append' : source.source,
    action: row.action,
    time: toNumber(row.time),
    actor: row.actor,
    appName: row.app_name,
    userId: row.user_id,
    sessionId: row.session_id,
    scope: (row.scope as Scope | null) ?? null,
    key: row.key,
    oldValue: row.old_value,
    newValue: row.new_value,
    reason: row.reason,
    detail: row.detail,
  };
}

export class SqlAuditLog implements AuditLog {
  constructor(private readonly client: SqlClient) {}

  async read(query: AuditLogQuery): Promise<Page<AuditRecord>> {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const offset = query.offset ?? 0;
    const depth = Math.min(offset + limit, MAX_AUDIT_DEPTH);
    const read = await Promise.all(
      sourcesFor(query.storeId).map(async (source) => {
        const parts = conditions(source, query);
        if (!parts) return { records: [] as AuditRecord[], total: 0 };
        const where = whereOf(parts);
        const [rows, counted] = await Promise.all([
          this.client.$queryRaw<Row[]>(
            sql`SELECT ${source.select} FROM ${source.from} WHERE ${where} ORDER BY ${source.columns.time} DESC LIMIT ${boundLimit(depth)}`,
          ),
          this.client.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM ${source.from} WHERE ${where}`),
        ]);
        return { records: rows.map((row) => recordOf(source, row)), total: toNumber(counted[0]?.n ?? 0) };
      }),
    );
    const merged = read.flatMap((part) => part.records).sort((a, b) => b.time - a.time || (a.id < b.id ? 1 : -1));
    return { items: merged.slice(offset, offset + limit), total: read.reduce((sum, part) => sum + part.total, 0) };
  }
}
