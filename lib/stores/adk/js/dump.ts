// Every table of an agent's database, schema and rows, as text: tests
// compare dumps before and after Statehouse browsed or wrote.
import Database from 'better-sqlite3';
import { queryPostgres } from '../../../testing/databases';
import { sqliteFilePath } from '../../../db/url';

export async function dumpDatabase(url: string): Promise<Record<string, string>> {
  const dump: Record<string, string> = {};
  if (url.startsWith('file:')) {
    const db = new Database(sqliteFilePath(url), { readonly: true });
    try {
      const objects = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all() as {
        type: string;
        name: string;
        sql: string | null;
      }[];
      dump['(schema)'] = JSON.stringify(objects);
      dump['(journal_mode)'] = String(db.pragma('journal_mode', { simple: true }));
      for (const { name } of objects.filter((o) => o.type === 'table')) {
        dump[name] = JSON.stringify((db.prepare(`SELECT * FROM "${name}"`).all() as unknown[]).map((row) => JSON.stringify(row)).sort());
      }
    } finally {
      db.close();
    }
    return dump;
  }
  const columns = await queryPostgres<{ table_name: string; column_name: string; data_type: string }>(
    url,
    "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
  );
  const indexes = await queryPostgres(url, "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname");
  const triggers = await queryPostgres(url, "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname");
  dump['(schema)'] = JSON.stringify({ columns, indexes, triggers });
  for (const table of new Set(columns.map((c) => c.table_name))) {
    const rows = await queryPostgres<{ row: string }>(url, `SELECT row_to_json(t)::text AS row FROM "${table}" t ORDER BY 1`);
    dump[table] = JSON.stringify(rows.map((r) => r.row));
  }
  return dump;
}
