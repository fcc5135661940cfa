// The audit log's reads: a page for the audit page, everything matching (up
// to the log's depth) for the export, and the export's CSV.
import { requireViewer } from '../current-principal';
import { getAuditLog } from '../services';
import { MAX_AUDIT_DEPTH, type AuditRecord } from '../session-service/audit-log';
import type { Page } from '../session-service/types';
import { auditLogQuery, type AuditFilters, type AuditPageQuery } from './audit-params';
import { limitOffset } from './list-params';

export async function getAuditPage(query: AuditPageQuery): Promise<Page<AuditRecord>> {
  await requireViewer();
  const { log, storeId } = await getAuditLog();
  return log.read({ ...auditLogQuery(storeId, query.filters), ...limitOffset(query) });
}

/** Every record the filters match, newest first, up to MAX_AUDIT_DEPTH (`truncated` says when there are more). */
export async function readAuditExport(filters: AuditFilters): Promise<{ items: AuditRecord[]; total: number; truncated: boolean }> {
  const { log, storeId } = await getAuditLog();
  const page = await log.read({ ...auditLogQuery(storeId, filters), limit: MAX_AUDIT_DEPTH, offset: 0 });
  return { items: page.items, total: page.total, truncated: page.total > page.items.length };
}

export const AUDIT_CSV_COLUMNS = [
  'time',
  'actor',
  'action',
  'source',
  'app',
  'user',
  'session',
  'scope',
  'key',
  'old_value',
  'new_value',
  'reason',
  'detail',
] as const;

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; a leading =, +, - or @ is prefixed with ' so a spreadsheet does not run it. */
function csvField(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function auditCsv(records: AuditRecord[]): string {
  const lines = [AUDIT_CSV_COLUMNS.join(',')];
  for (const record of records) {
    lines.push(
      [
        new Date(record.time * 1000).toISOString(),
        record.actor,
        record.action,
        record.source,
        record.appName,
        record.userId,
        record.sessionId,
        record.scope,
        record.key,
        record.oldValue,
        record.newValue,
        record.reason,
        record.detail,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
