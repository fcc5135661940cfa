// What every connection to an agent's database offers, whatever the engine (agent-db.ts, agent-db-mysql.ts).

export type AgentDialect = 'sqlite' | 'postgresql' | 'mysql';
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
  /**
   * Something cheap that differs after any commit to the database, by anyone
   * (SQLite: the file's data version, and this connection's own commits),
   * read without scanning a table; undefined where the engine offers none.
   */
  changeSignal?(): Promise<string>;
  /**
   * A connection of its own to the same database for reads off the request
   * path (the search follower), so its waits on the agent's locks never
   * queue a request's statements; closed with this one. Absent where a pool
   * already gives each batch its own connection.
   */
  reader?(): AgentDb;
  /** A consistent snapshot for a batch of reads. */
  read<R>(fn: (q: AgentQuery) => Promise<R>): Promise<R>;
  /** One write transaction; one at a time per store (SQLite: BEGIN EXCLUSIVE, taken without waiting on the agent's locks; see above). */
  write<R>(fn: (q: AgentQuery) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}

/** A connection pool's use: connections open, idle, and queries waiting for one. */
export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

/** How long the console waits for the agent's lock before giving up (ms). */
export const BUSY_TIMEOUT_MS = 5000;
