import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient as PostgresClient } from './generated/postgresql/client';
import { PrismaClient as SqliteClient } from './generated/sqlite/client';
import type { SqlClient } from './session-service/sql';

export type Provider = 'sqlite' | 'postgresql';

/** The embedded default: a SQLite file under ./.data, created on first use. */
export const DEFAULT_DATABASE_URL = 'file:./.data/statehouse.db';

/** Long enough for a queue of writers on one SQLite file; Prisma's defaults (2 s / 5 s) are not. */
const TRANSACTION_OPTIONS = { maxWait: 30_000, timeout: 60_000 };
const SQLITE_BUSY_TIMEOUT_MS = 30_000;

export function providerOf(databaseUrl: string): Provider {
  if (databaseUrl.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return 'postgresql';
  throw new Error(
    `Unsupported database URL "${redactUrl(databaseUrl)}": use file:<path> for SQLite or postgresql://... for PostgreSQL.`,
  );
}

/** Absolute file path of a SQLite `file:` URL (relative paths resolve against the working directory). */
export function sqliteFilePath(databaseUrl: string): string {
  const path = databaseUrl.slice('file:'.length).replace(/\?.*$/, '');
  return path === ':memory:' ? path : resolve(path);
}

/** The URL without its password, fit for messages and logs. */
export function redactUrl(databaseUrl: string): string {
  return databaseUrl.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
}

/** The Prisma driver adapter factory for a URL; migrations use it too. */
export function adapterFactoryFor(databaseUrl: string): PrismaBetterSqlite3 | PrismaPg {
  if (providerOf(databaseUrl) === 'sqlite') {
    const file = sqliteFilePath(databaseUrl);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    return new PrismaBetterSqlite3({ url: `file:${file}`, timeout: SQLITE_BUSY_TIMEOUT_MS });
  }
  return new PrismaPg({ connectionString: databaseUrl });
}

export interface Database {
  provider: Provider;
  client: SqlClient;
  close(): Promise<void>;
}

/** Opens a Prisma client for a database URL, with the driver adapter its scheme calls for. */
export async function openDatabase(databaseUrl: string): Promise<Database> {
  const provider = providerOf(databaseUrl);
  const adapter = adapterFactoryFor(databaseUrl);
  const client =
    provider === 'sqlite'
      ? new SqliteClient({ adapter, transactionOptions: TRANSACTION_OPTIONS })
      : new PostgresClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
  if (provider === 'sqlite') {
    // WAL lets the dashboard read while an agent writes; foreign keys make deletes cascade.
    await client.$queryRawUnsafe('PRAGMA journal_mode = WAL');
    await client.$executeRawUnsafe('PRAGMA foreign_keys = ON');
    await client.$executeRawUnsafe('PRAGMA synchronous = NORMAL');
  }
  return { provider, client: client as unknown as SqlClient, close: () => client.$disconnect() };
}
