import { sqltag as sql } from '@prisma/client/runtime/client';
import type { SqlClient, SqlExecutor } from '../../db/sql';
import { SEARCH_COUNT_LIMIT } from '../../session-service/paging';
import type { SessionSummary } from '../../session-service/types';
import { readIsolation, toNumber, type Dialect } from './dialect';

export interface NativeStoreOptions {
  /** SEARCH_COUNT_LIMIT by default; tests lower it. */
  searchCountLimit?: number;
}

/** What every operation of the native store works with: the connection, its dialect, and how it reads and writes. */
export class StoreContext {
  readonly searchCountLimit: number;

  constructor(
    readonly client: SqlClient,
    readonly dialect: Dialect,
    options: NativeStoreOptions = {},
  ) {
    this.searchCountLimit = options.searchCountLimit ?? SEARCH_COUNT_LIMIT;
  }

  read<R>(fn: (tx: SqlExecutor) => Promise<R>): Promise<R> {
    // One snapshot for multi-statement reads; on SQLite this also queues
    // behind the adapter's open write transaction instead of reading into it.
    return this.client.$transaction(fn, readIsolation(this.dialect));
  }

  write<R>(fn: (tx: SqlExecutor) => Promise<R>): Promise<R> {
    return this.client.$transaction(fn);
  }
}

export interface SessionRow {
  pk: unknown;
  app_name: string;
  user_id: string;
  id: string;
  revision: unknown;
  last_seq: unknown;
  create_time: unknown;
  update_time: unknown;
}

export const SESSION_COLUMNS = sql`pk, app_name, user_id, id, revision, last_seq, create_time, update_time`;

export function summaryOf(row: SessionRow): SessionSummary {
  return {
    id: row.id,
    appName: row.app_name,
    userId: row.user_id,
    createTime: toNumber(row.create_time),
    lastUpdateTime: toNumber(row.update_time),
    eventCount: toNumber(row.last_seq),
    revision: toNumber(row.revision),
  };
}
