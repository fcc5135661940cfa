// What a database URL says, without connecting: kept apart from lib/db.ts
// so that code which only needs to know the provider (the request proxy)
// does not load the drivers.
import { resolve } from 'node:path';

export type Provider = 'sqlite' | 'postgresql';

/** The embedded default: a SQLite file under ./.data, created on first use. */
export const DEFAULT_DATABASE_URL = 'file:./.data/statehouse.db';

export function providerOf(databaseUrl: string): Provider {
  if (databaseUrl.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return 'postgresql';
  throw new Error(`Unsupported database URL "${redactUrl(databaseUrl)}": use file:<path> for SQLite or postgresql://... for PostgreSQL.`);
}

/** Absolute file path of a SQLite `file:` URL (relative paths resolve against the working directory). */
export function sqliteFilePath(databaseUrl: string): string {
  const path = databaseUrl.slice('file:'.length).replace(/\?.*$/, '');
  return path === ':memory:' ? path : resolve(path);
}

/**
 * Whether a PostgreSQL URL says it goes through PgBouncer (`pgbouncer=true`,
 * Prisma's own spelling): in transaction mode each statement may run on
 * another server connection, so no statement may be prepared by name.
 */
export function behindPgBouncer(databaseUrl: string): boolean {
  const query = databaseUrl.indexOf('?');
  return query >= 0 && new URLSearchParams(databaseUrl.slice(query + 1)).get('pgbouncer') === 'true';
}

/** The URL without its password, fit for messages and logs. */
export function redactUrl(databaseUrl: string): string {
  return databaseUrl.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
}
