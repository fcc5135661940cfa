// The audit log as a download: every edit and operation the filters match (the audit page's filters), as JSON or CSV.
import { z } from 'zod';
import { auditCsv, readAuditExport } from '../../data/audit';
import { auditQueryOf } from '../../data/audit-params';
import { plainRoute } from '../handler';
import { parseQuery } from '../query';
import { json } from '../respond';

const formatQuery = z.object({ format: z.enum(['json', 'csv'], { error: 'must be json or csv' }).default('json') });

/** `?format=json|csv&actor=&app=&user=&key=&since=&until=`: `{"items", "total", "truncated"}` or CSV, newest first. */
export const exportAudit = plainRoute(async (request) => {
  const url = new URL(request.url);
  const { format } = parseQuery(request, formatQuery);
  const { filters } = auditQueryOf(Object.fromEntries(url.searchParams));
  const read = await readAuditExport(filters);
  if (format === 'json') return json(read, 200, { 'Content-Disposition': 'attachment; filename="statehouse-audit.json"' });
  return new Response(auditCsv(read.items), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="statehouse-audit.csv"',
      ...(read.truncated ? { 'X-Statehouse-Truncated': `${read.items.length} of ${read.total}` } : {}),
    },
  });
});
