import Database from 'better-sqlite3';

/** A floor's SQLite file, with the pragmas lib/db sets for Statehouse (foreign keys where the schema has them). */
export function openSqliteFile(file: string, foreignKeys: boolean): Database.Database {
  const db = new Database(file, { timeout: 30_000 });
  db.pragma('journal_mode = WAL');
  if (foreignKeys) db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  return db;
}
