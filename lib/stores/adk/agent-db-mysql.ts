// A connection to an agent's MySQL or MariaDB database (adk-python's
// DatabaseSessionService on `mysql+pymysql://`, `mysql+aiomysql://`,
// `mariadb+...`): mysql2's pool, no ORM, no DDL. Each connection sets only
// session variables that end with it: ANSI_QUOTES (the base quotes
// identifiers with double quotes, as on SQLite and PostgreSQL), a 5 s lock
// wait, and a statement time limit. Times and JSON arrive as the server's
// text (`dateStrings`), for the family to decode by its own clock rules.
import mysql from 'mysql2';
import type { Pool as PromisePool, PoolConnection } from 'mysql2/promise';
import { traceQuery } from '../../observability/tracing';
import { pooledTransaction } from '../../db/pooled-transaction';
import { redactUrl } from '../../db/url';
import { BUSY_TIMEOUT_MS, type AgentDb, type AgentQuery, type Param, type PoolUse, type Row } from './agent-db-types';
import { Queue } from './serial-queue';

/** `mysql+pymysql://u:p@h/db` (SQLAlchemy's spelling) as the driver takes it: `mysql://u:p@h/db`. */
export function mysqlDriverUrl(location: string): string {
  return location.replace(/^(mysql|mariadb)(\+\w+)?:/, 'mysql:');
}

interface QueryResult {
  affectedRows?: number;
}

function on(run: (sql: string, params: Param[]) => Promise<unknown>): AgentQuery {
  // One connection runs one statement at a time: a batch's concurrent reads queue here.
  const queue = new Queue();
  return {
    all: (sql, params = []) => queue.run(() => traceQuery('mysql', sql, async () => (await run(sql, params)) as Row[])),
    run: (sql, params = []) =>
      queue.run(() => traceQuery('mysql', sql, async () => ((await run(sql, params)) as QueryResult).affectedRows ?? 0)),
  };
}

class MysqlAgentDb implements AgentDb {
  readonly dialect = 'mysql' as const;
  readonly journalMode = null;
  /** The console's writes to this store, one at a time (as on PostgreSQL). */
  private readonly writes = new Queue();

  constructor(
    private readonly pool: PromisePool,
    private readonly core: mysql.Pool,
    readonly location: string,
  ) {}

  poolUse(): PoolUse {
    // mysql2 keeps its counts on the pool's internal lists, not in its typings.
    const lists = this.core as unknown as { _allConnections?: { length: number }; _freeConnections?: { length: number } };
    const queue = this.core as unknown as { _connectionQueue?: { length: number } };
    return {
      total: lists._allConnections?.length ?? 0,
      idle: lists._freeConnections?.length ?? 0,
      waiting: queue._connectionQueue?.length ?? 0,
    };
  }

  all(sql: string, params?: Param[]): Promise<Row[]> {
    return on(async (text, values) => (await this.pool.query(text, values))[0]).all(sql, params);
  }

  run(sql: string, params?: Param[]): Promise<number> {
    return on(async (text, values) => (await this.pool.query(text, values))[0]).run(sql, params);
  }

  read<R>(fn: (q: AgentQuery) => Promise<R>): Promise<R> {
    return this.batch('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY', fn);
  }

  write<R>(fn: (q: AgentQuery) => Promise<R>): Promise<R> {
    return this.writes.run(() => this.batch('START TRANSACTION', fn));
  }

  private async batch<R>(begin: string, fn: (q: AgentQuery) => Promise<R>): Promise<R> {
    const connection: PoolConnection = await this.pool.getConnection();
    return pooledTransaction(connection, begin, () => fn(on(async (text, values) => (await connection.query(text, values))[0])));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Opens a MySQL/MariaDB database; the server's flavour decides the statement time limit's name. */
export async function openMysqlAgentDb(location: string): Promise<AgentDb> {
  const url = mysqlDriverUrl(location);
  const core = mysql.createPool({
    uri: url,
    connectionLimit: 4,
    dateStrings: true,
    supportBigNumbers: true,
    jsonStrings: true,
    // A server that accepts connections but never answers is an outage, not a wait without end.
    connectTimeout: BUSY_TIMEOUT_MS,
  });
  const limits = `SET SESSION sql_mode = CONCAT(@@SESSION.sql_mode, ',ANSI_QUOTES'), SESSION innodb_lock_wait_timeout = ${BUSY_TIMEOUT_MS / 1000}`;
  let flavour: 'mariadb' | 'mysql' | undefined;
  core.on('connection', (connection) => {
    // Queued on the connection before any statement of ours.
    connection.query(limits);
    if (flavour === 'mariadb') connection.query(`SET SESSION max_statement_time = ${(BUSY_TIMEOUT_MS * 6) / 1000}`);
    else if (flavour === 'mysql') connection.query(`SET SESSION max_execution_time = ${BUSY_TIMEOUT_MS * 6}`);
  });
  // An idle connection the server ends is reported through the next query that needs one.
  core.on('error' as 'connection', () => undefined);
  const pool = core.promise();
  const db = new MysqlAgentDb(pool, core, redactUrl(url));
  try {
    const version = String((await db.all('SELECT version() AS v'))[0]?.v ?? '');
    flavour = /mariadb/i.test(version) ? 'mariadb' : 'mysql';
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
