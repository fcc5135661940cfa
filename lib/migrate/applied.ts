import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Whether a SQLite file has every one of these migrations applied, read
 * through an ordinary read-only connection. The schema engine would open the
 * file exclusively just to find nothing to do, which fails while another
 * process (a second server, a test fixture) has it open in WAL mode.
 * Any doubt (no file, no table, unreadable) answers false: the engine decides.
 */
export function sqliteHasMigrations(file: string, names: readonly string[]): boolean {
  if (file === ':memory:' || !existsSync(file)) return false;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const rows = db
      .prepare('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL')
      .all() as { migration_name: string }[];
    const applied = new Set(rows.map((row) => row.migration_name));
    return names.every((name) => applied.has(name));
  } catch {
    return false;
  } finally {
    db?.close();
  }
}
