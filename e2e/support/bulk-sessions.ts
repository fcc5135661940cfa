// Many sessions at once, straight into the servers' database in one
// statement: ten thousand through the service would take most of a test's
// time. The database's triggers keep the session counts as the service's
// own writes do.
import Sqlite from 'better-sqlite3';
import { sqliteFilePath } from '../../lib/db';
import { e2eDatabaseUrl } from './database';

function withDatabase<T>(fn: (db: Sqlite.Database) => T): T {
  const db = new Sqlite(sqliteFilePath(e2eDatabaseUrl()), { timeout: 10_000 });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/**
 * Sessions `<prefix>00001` … of `appName`, spread over `users` users
 * (`<prefix>user-0` …), updated one second apart so the last is the newest,
 * ending a minute ago.
 */
export function insertSessions(appName: string, prefix: string, count: number, users = 10): void {
  const start = Date.now() / 1000 - 60 - count;
  withDatabase((db) =>
    db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < @count)
         INSERT INTO sessions (app_name, user_id, id, revision, last_seq, create_time, update_time)
         SELECT @appName, @prefix || 'user-' || (i % @users), @prefix || printf('%05d', i), 0, 0, @start + i, @start + i FROM n`,
      )
      .run({ appName, prefix, count, users, start }),
  );
}

/** Deletes every session of an app (its events and session state go with them). */
export function deleteSessionsOf(appName: string): void {
  withDatabase((db) => db.prepare('DELETE FROM sessions WHERE app_name = ?').run(appName));
}
