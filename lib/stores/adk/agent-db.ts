// A connection to a database someone else owns (the agent's): plain driver
// access with no ORM, no migrations and no session settings that outlive
// the connection. SQLite is opened as it is (its journal mode untouched,
// never created when missing); every transaction is one short statement
// batch, and the console's own writes to one store go one at a time.
//
// SQLite and the agent's driver: adk-js (MikroORM over node-sqlite3, whose
// connections wait 1 s for a lock) and adk-python and adk-rust begin their
// appends DEFERRED, read, then write. SQLite never lets a reader that wants
// to write wait for another writer (the busy handler is skipped for
// SHARED -> RESERVED, since both could wait forever): it fails at once with
// SQLITE_BUSY. So a console transaction holding the write lock while the
// agent reads makes the agent's append fail, and a console commit waiting for
// the agent's read lock (PENDING) makes it fail too. The console therefore
// takes the whole file at once (BEGIN EXCLUSIVE) without waiting, and tries
// only when the kernel's lock table shows no other process holding a lock on
// it (sqlite-lock-table.ts: even a refused try holds RESERVED for a moment);
// while anyone does, it tries again a few milliseconds later, off the event
// loop's back; once it holds the file its transaction is a few
// synchronous statements, shorter than the agent's busy wait. The agent's own
// waits poll (1, 2, 5, 10, ... ms apart): after each write the console leaves
// the file alone for several times as long as it held it, so eight console
// writers never fill the agent's second of polls with held locks.
import Database from 'better-sqlite3';
import { registerFoldCase } from '../../db/sqlite-fold-case';
import pg from 'pg';
import { traceQuery } from '../../observability/tracing';
import { pooledTransaction } from '../../db/pooled-transaction';
import { redactUrl } from '../../db/url';
import { openMysqlAgentDb } from './agent-db-mysql';
import { BUSY_TIMEOUT_MS, type AgentDb, type AgentDialect, type AgentQuery, type Param, type PoolUse, type Row } from './agent-db-types';
import { Queue } from './serial-queue';
import { finishTransaction } from './sqlite-transaction';
import { lockTableView, type LockTableView } from './sqlite-lock-table';
import { countAgentFileTry } from '../../observability/metrics';

export type { AgentDb, AgentDialect, AgentQuery, Param, PoolUse, Row } from './agent-db-types';
export { BUSY_TIMEOUT_MS } from './agent-db-types';

/** After a write the console leaves the agent's SQLite file alone for this many times as long as it held it, and at least WRITE_GAP_MS. */
const WRITE_GAP_FACTOR = 4;
const WRITE_GAP_MS = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isBusy(error: unknown): boolean {
  return error instanceof Database.SqliteError && (error.code === 'SQLITE_BUSY' || error.code.startsWith('SQLITE_BUSY_'));
}

/** The refusal a console write gives when another process held the file for all of BUSY_TIMEOUT_MS, as SQLite would. */
const heldByOthers = () => new Database.SqliteError('database is locked by another process', 'SQLITE_BUSY');

/**
 * Runs `attempt` until it does not fail with SQLITE_BUSY, pausing a few
 * milliseconds (growing, with jitter) between tries, for at most
 * BUSY_TIMEOUT_MS; then the last SQLITE_BUSY is thrown.
 */
async function whenNotBusy<R>(attempt: () => R | Promise<R>): Promise<R> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 20)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
    }
    await sleep(pause + Math.random() * pause);
  }
}

/** A SQLite path (`file:` URL, `sqlite:///` URL as ADK spells it, or a bare path), a PostgreSQL URL, or a MySQL/MariaDB URL (`mysql+pymysql://` as SQLAlchemy spells it is accepted too). */
export function agentDialectOf(location: string): AgentDialect {
  if (/^postgres(ql)?(\+\w+)?:\/\//.test(location)) return 'postgresql';
  return /^(mysql|mariadb)(\+\w+)?:\/\//.test(location) ? 'mysql' : 'sqlite';
}

/** The file path of a SQLite location in any of the spellings ADK and Statehouse use. */
export function sqlitePathOf(location: string): string {
  if (location.startsWith('file:')) return location.slice('file:'.length).replace(/\?.*$/, '');
  const adk = /^sqlite(\+\w+)?:\/\/\/(.*)$/.exec(location);
  if (adk) return (adk[2] ?? '').replace(/\?.*$/, '');
  return location;
}

class SqliteAgentDb implements AgentDb {
  readonly dialect = 'sqlite' as const;
  readonly journalMode: string;
  private readonly queue = new Queue();
  /** The console's writes, one at a time, each after the previous one's gap. */
  private readonly writes = new Queue();
  private nextWriteAt = 0;
  private readonly direct: AgentQuery;
  /** Who else holds the file (see sqlite-lock-table.ts); dropped if the table proves not to describe it. */
  private lockTable: LockTableView | undefined;
  private lockTableConfirmed = false;
  /** This connection's own commits: SQLite's data version counts only other connections'. */
  private commits = 0;
  private background: SqliteAgentDb | undefined;

  constructor(
    private readonly db: Database.Database,
    readonly location: string,
    journalMode: string,
  ) {
    this.journalMode = journalMode;
    this.lockTable = lockTableView(location, this.journalMode);
    // Connection-local, as ADK's own connections do: ON DELETE CASCADE applies to events.
    db.pragma('foreign_keys = ON');
    this.direct = {
      all: (sql, params = []) => traceQuery('sqlite', sql, async () => this.db.prepare(sql).all(...params) as Row[]),
      run: (sql, params = []) => traceQuery('sqlite', sql, async () => this.db.prepare(sql).run(...params).changes),
    };
  }

  all(sql: string, params?: Param[]): Promise<Row[]> {
    return this.queue.run(() => whenNotBusy(() => this.db.prepare(sql).all(...(params ?? [])) as Row[]));
  }

  run(sql: string, params?: Param[]): Promise<number> {
    return this.queue.run(() =>
      whenNotBusy(() => {
        const { changes } = this.db.prepare(sql).run(...(params ?? []));
        this.commits += 1;
        return changes;
      }),
    );
  }

  changeSignal(): Promise<string> {
    return this.queue.run(() => whenNotBusy(() => `${String(this.db.pragma('data_version', { simple: true }))}:${this.commits}`));
  }

  /** A deferred transaction: its first read takes SHARED (tried again while the agent commits); reads change nothing, so a busy batch is run again whole. */
  read<R>(fn: (q: AgentQuery) => Promise<R>): Promise<R> {
    return this.queue.run(() =>
      whenNotBusy(() => {
        this.db.exec('BEGIN');
        return finishTransaction(this.db, this.direct, fn);
      }),
    );
  }

  /** The file, exclusively, taken without waiting on anyone (see the top of this file); then the batch, and commit. */
  write<R>(fn: (q: AgentQuery) => Promise<R>): Promise<R> {
    return this.writes.run(async () => {
      const gap = this.nextWriteAt - Date.now();
      if (gap > 0) await sleep(gap);
      let held = 0;
      try {
        return await this.queue.run(async () => {
          await whenNotBusy(() => this.takeFile());
          this.confirmLockTable();
          const start = performance.now();
          try {
            const result = await finishTransaction(this.db, this.direct, fn);
            this.commits += 1;
            return result;
          } finally {
            held = performance.now() - start;
          }
        });
      } finally {
        this.nextWriteAt = Date.now() + Math.max(WRITE_GAP_MS, held * WRITE_GAP_FACTOR);
      }
    });
  }

  /** One try at the file: none while another process holds a lock on it, since the try itself can fail an agent's write. */
  private takeFile(): void {
    if (this.lockTable?.othersHold()) {
      countAgentFileTry('waited');
      throw heldByOthers();
    }
    try {
      this.db.exec('BEGIN EXCLUSIVE');
      countAgentFileTry('taken');
    } catch (error) {
      if (isBusy(error)) countAgentFileTry('busy');
      throw error;
    }
  }

  /** Once, while holding the file: a table that does not list this process's own lock describes another file (a network or layered file system), and is not used. */
  private confirmLockTable(): void {
    if (this.lockTableConfirmed || !this.lockTable) return;
    this.lockTableConfirmed = true;
    if (!this.lockTable.showsOwnLock()) this.lockTable = undefined;
  }

  reader(): AgentDb {
    this.background ??= new SqliteAgentDb(openSqliteFile(this.location), this.location, this.journalMode);
    return this.background;
  }

  async close(): Promise<void> {
    await this.background?.close();
    this.db.close();
  }
}

/** A connection to an existing SQLite file, with Statehouse's case folding and no busy handler. */
function openSqliteFile(path: string): Database.Database {
  // No busy handler: better-sqlite3 would wait synchronously, stalling every request of the process; waits are async here.
  const db = new Database(path, { fileMustExist: true, timeout: 0 });
  registerFoldCase(db);
  return db;
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
  /** The console's writes to this store, one at a time: eight editors never wait on each other's row locks inside the agent's database. */
  private readonly writes = new Queue();

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
    return this.writes.run(() => this.batch('BEGIN', fn));
  }

  private async batch<R>(begin: string, fn: (q: AgentQuery) => Promise<R>): Promise<R> {
    const client = await this.pool.connect();
    return pooledTransaction(client, begin, () => fn(PostgresAgentDb.on(client)));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Opens the agent's database; a SQLite file must exist (opening never creates one). */
export async function openAgentDb(location: string): Promise<AgentDb> {
  if (agentDialectOf(location) === 'mysql') return openMysqlAgentDb(location);
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
    // Likewise for a connection in the middle of a batch, between two statements: the batch's next statement fails instead.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new PostgresAgentDb(pool, redactUrl(url));
    await db.all('SELECT 1');
    return db;
  }
  const path = sqlitePathOf(location);
  const db = openSqliteFile(path);
  try {
    // Reading the mode does not change it (setting it would write their file); it reads the file, so the agent's commit can hold it off.
    const journalMode = await whenNotBusy(() => String(db.pragma('journal_mode', { simple: true })));
    return new SqliteAgentDb(db, path, journalMode);
  } catch (error) {
    db.close();
    throw error;
  }
}
