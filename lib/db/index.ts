import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { adapterSqlClient, statementNameOf } from './adapter-sql-client';
import { POSTGRES_TIMEOUTS, postgresPool, type PostgresTimeouts } from './postgres-pool';
import { cacheSqliteStatements } from './sqlite-statement-cache';
import { env } from '../env';
import { behindPgBouncer, providerOf, sqliteFilePath, type Provider } from './url';
import type { SqlClient } from './sql';

export { DEFAULT_DATABASE_URL, providerOf, redactUrl, sqliteFilePath, type Provider } from './url';
export { POSTGRES_TIMEOUTS, type PostgresTimeouts } from './postgres-pool';

/**
 * How long a write waits for another process's lock on the SQLite file
 * (an agent writing beside the dashboard). better-sqlite3 waits
 * synchronously, so the whole server is frozen meanwhile: long enough for a
 * queue of short writes, short enough that a held lock becomes a 503 in
 * seconds rather than a hung console.
 */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/** STATEHOUSE_SQLITE_BUSY_TIMEOUT_MS: how long a write waits for a lock another process holds before failing (503). */
export function sqliteBusyTimeout(): number {
  return env().STATEHOUSE_SQLITE_BUSY_TIMEOUT_MS ?? SQLITE_BUSY_TIMEOUT_MS;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL's time limits (lib/db/postgres-pool.ts); tests shorten them. */
  postgres?: Partial<PostgresTimeouts>;
}

/** The Prisma driver adapter factory for a URL; migrations use it too. */
export function adapterFactoryFor(databaseUrl: string, options: OpenDatabaseOptions = {}): PrismaBetterSqlite3 | PrismaPg {
  return adapterAndPool(databaseUrl, options).factory;
}

/** The factory, and for PostgreSQL the pool under it (openDatabase reports its use). */
function adapterAndPool(databaseUrl: string, options: OpenDatabaseOptions): { factory: PrismaBetterSqlite3 | PrismaPg; pool?: pg.Pool } {
  if (providerOf(databaseUrl) === 'sqlite') {
    const file = sqliteFilePath(databaseUrl);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    return { factory: new PrismaBetterSqlite3({ url: `file:${file}`, timeout: sqliteBusyTimeout() }) };
  }
  const pool = postgresPool(databaseUrl, { ...POSTGRES_TIMEOUTS, ...options.postgres });
  // Behind PgBouncer every statement runs unnamed: a name prepared on one server connection is unknown on the next.
  const naming = behindPgBouncer(databaseUrl) ? {} : { statementNameGenerator: statementNameOf };
  return { factory: new PrismaPg(pool, { disposeExternalPool: true, ...naming }), pool };
}

export interface Database {
  provider: Provider;
  client: SqlClient;
  /** PostgreSQL's pool right now: connections open, idle, and queries waiting for one (SQLite has no pool). */
  poolUse?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/**
 * Connects the driver adapter its scheme calls for. The service speaks raw
 * SQL only, so it talks to the adapter directly rather than through a
 * PrismaClient (lib/adapter-sql-client.ts says why).
 */
export async function openDatabase(databaseUrl: string, options: OpenDatabaseOptions = {}): Promise<Database> {
  const provider = providerOf(databaseUrl);
  const { factory, pool } = adapterAndPool(databaseUrl, options);
  const adapter = await factory.connect();
  const sqlite = provider === 'sqlite' ? cacheSqliteStatements(adapter) : null;
  if (provider === 'sqlite') {
    if (!sqlite) console.warn('SQLite statement cache not installed: the driver adapter has changed shape.');
    // WAL lets the dashboard read while an agent writes; foreign keys make deletes cascade.
    await adapter.executeScript('PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;');
  }
  const client = adapterSqlClient(provider, adapter, sqlite ?? undefined);
  const poolUse = pool && (() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
  return { provider, client, ...(poolUse ? { poolUse } : {}), close: () => client.$disconnect() };
}
