// A connection to a database someone else owns (the agent's): plain driver
// access with no ORM, no migrations and no session settings that outlive
// the connection. SQLite is opened as it is (its journal mode untouched,
// never created when missing) with a busy timeout; every transaction is one
// short statement batch.
import Database from 'better-sqlite3';
import pg from 'pg';
import { traceQuery } from '../../observability/tracing';
import { redactUrl } from '../../db/url';

export type AgentDialect = 'sqlite' | 'postgresql';
export type Row = Record<string, unknown>;
export type Param = string | number | null;

/** Statements with `?` placeholders (rewritten to `$n` for PostgreSQL). */
export interface AgentQuery {
  all(sql: string, params?: Param[]): Promise<Row[]>;
  /** Rows changed. */
  run(sql: string, params?: Param[]): Promise<number>;
}

export interface AgentDb extends AgentQuery {
  readonly dialect: AgentDialect;
  /** Where it is, without a password: for messages. */
  readonly location: string;
  /** SQLite's journal mode as found (`wal`, `delete`, ...); null on PostgreSQL. */
  readonly journalMode: string | null;
  /** Connections of its pool right now (PostgreSQL); undefined for a single SQLite connection. */
  poolUse?(): PoolUse;
  /** A consistent snapshot for a batch of reads. */
  read<R>(fn: (q: AgentQuery) => Promise<R>): Promise<R>;
  /** One write transaction (SQLite: BEGIN IMMEDIATE, so it waits for the file lock up front, within the busy timeout). */
  write<R>(fn: (q: AgentQuery) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}

/** A connection pool's use: connections open, idle, and queries waiting for one. */
export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

/** How long a statement waits for the agent's lock before giving up (ms). */
export const BUSY_TIMEOUT_MS = 5000;

/** A SQLite path (`file:` URL, `sqlite:///` URL as ADK spells it, or a bare path) or a PostgreSQL URL. */
export function agentDialectOf(location: string): AgentDialect {
  return /^postgres(ql)?(\+\w+)?:\/\//.test(location) ? 'postgresql' : 'sqlite';
}

/** The file path of a SQLite location in any of the spellings ADK and Statehouse use. */
export function sqlitePathOf(location: string): string {
  if (location.startsWith('file:')) return location.slice('file:'.length).replace(/\?.*$/, '');
  const adk = /^sqlite(\+\w+)?:\/\/\/(.*)$/.exec(location);
  if (adk) return (adk[2] ?? '').replace(/\?.*$/, '');
  return location;
}

/** Serialises the async batches on one SQLite connection, so no statement of another request lands inside them. */
class Queue {
  private tail: Promise<unknown> = Promise.resolve();
  run<R>(fn: () => Promise<R>): Promise<R> {
    const result = this.tail.then(fn, fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

class SqliteAgentDb implements AgentDb {
  readonly dialect = 'sqlite' as const;
  readonly journalMode: string;
  private readonly queue = new Queue();
  private readonly direct: AgentQuery;

  constructor(
    private readonly db: Database.Database,
    readonly location: string,
  ) {
    // Reading the mode does not change it; setting it would write their file.
    this.journalMode = String(db.pragma('journal_mode', { simple: true }));
    // Connection-local, as ADK's own connections do: ON DELETE CASCADE applies to events.
    db.pragma('foreign_keys = ON');
    this.direct = {
      all: (sql, params = []) => traceQuery('sqlite', sql, async () => this.db.prepare(sql).all(...params) as Row[]),
      run: (sql, params = []) => traceQuery('sqlite', sql, async () => this.db.prepare(sql).run(...params).changes),
    };
  }

  all(sql: string, params?: Param[]): Promise<Row[]> {
    return this.queue.run(() => this.direct.all(sql, params));
  }

  run(sql: string, params?: Param[]): Promise<number> {
    return this.queue.run(() => this.direct.run(sql, params));
  }

  read<R>(fn: (q: AgentQuery) => Promise<R>): Promise<R> {
    return this.batch('BEGIN', fn);
  }

  write<R>(fn: (q: AgentQuery) => Promise<R>): Promise<R> {
    return this.batch('BEGIN IMMEDIATE', fn);
  }

  private batch<R>(begin: string, fn: (q: AgentQuery) => Promise<R>): Promise<R> {
    return this.queue.run(async () => {
      this.db.exec(begin);
      try {
        const result = await fn(this.direct);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/** `?` placeholders to `$1..$n`, outside string literals. */
function numbered(sql: string): string {
  let n = 0;
  let quoted = false;
  let out = '';
  for (const char of sql) {
    if (char === "'") quoted = !quoted;
    out += char === '?' && !quoted ? `$${++n}` : char;
  }
  return out;
}

// Timestamps and JSON arrive as the server's text: the families decode them
// by their own rules (naive local vs UTC) rather than pg's.
const RAW_TEXT_TYPES = new Set([1114, 1184, 114, 3802]);
const agentTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    RAW_TEXT_TYPES.has(oid)
      ? (value: string) => value
      : (pg.types.getTypeParser(oid, format) as (value: string) => unknown)) as typeof pg.types.getTypeParser,
};

class PostgresAgentDb implements AgentDb {
  readonly dialect = 'postgresql' as const;
  readonly journalMode = null;

  constructor(
    private readonly pool: pg.Pool,
    readonly location: string,
  ) {}

  poolUse(): PoolUse {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  private static on(client: pg.ClientBase | pg.Pool): AgentQuery {
    // One connection runs one statement at a time: a batch's concurrent reads queue here.
    const queue = new Queue();
    return {
      all: (sql, params = []) =>
        queue.run(() => traceQuery('postgresql', sql, async () => (await client.query(numbered(sql), params)).rows as Row[])),
      run: (sql, params = []) =>
        queue.run(() => traceQuery('postgresql', sql, async () => (await client.query(numbered(sql), params)).rowCount ?? 0)),
    };
  }

  all(sql: string, params?: Param[]): Promise<Row[]> {
    return PostgresAgentDb.on(this.pool).all(sql, params);
  }

  run(sql: string, params?: Param[]): Promise<number> {
    return PostgresAgentDb.on(this.pool).run(sql, params);
  }

  read<R>(fn: (q: AgentQuery) => Promise<R>): Promise<R> {
    return this.batch('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', fn);
  }

  write<R>(fn: (q: AgentQuery) => Promise<R>): Promise<R> {
    return this.batch('BEGIN', fn);
  }

  private async batch<R>(begin: string, fn: (q: AgentQuery) => Promise<R>): Promise<R> {
    const client = await this.pool.connect();
    try {
      await client.query(begin);
      const result = await fn(PostgresAgentDb.on(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Opens the agent's database; a SQLite file must exist (opening never creates one). */
export async function openAgentDb(location: string): Promise<AgentDb> {
  if (agentDialectOf(location) === 'postgresql') {
    const url = location.replace(/^postgres(ql)?\+\w+:/, 'postgresql:');
    const pool = new pg.Pool({
      connectionString: url,
      max: 4,
      types: agentTypes,
      // A lock someone else holds is waited for briefly, never for long.
      options: `-c lock_timeout=${BUSY_TIMEOUT_MS} -c statement_timeout=${BUSY_TIMEOUT_MS * 6}`,
      // A server that accepts connections but never answers is an outage, not a wait without end.
      connectionTimeoutMillis: BUSY_TIMEOUT_MS,
    });
    // An idle connection the server ends (a restart, a terminated backend) is reported through
    // the next query that needs one; its 'error' event must not end the process.
    pool.on('error', () => undefined);
    const db = new PostgresAgentDb(pool, redactUrl(url));
    await db.all('SELECT 1');
    return db;
  }
  const path = sqlitePathOf(location);
  const db = new Database(path, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  return new SqliteAgentDb(db, path);
}
