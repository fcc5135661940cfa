// Prepared-statement reuse for the SQLite driver adapter. The adapter
// prepares every statement it runs afresh (`db.prepare(sql).bind(args)`), and
// preparing costs more than running: about half of a session read's time
// (docs/benchmarks.md). This gives the adapter's connection a prepare() that
// returns, per SQL text, the statement prepared the first time, bound to
// this call's arguments through a small view (better-sqlite3's own bind()
// would fix the arguments on the shared statement for good).
import type BetterSqlite3 from 'better-sqlite3';
import { registerFoldCase } from './sqlite-fold-case';

type Statement = BetterSqlite3.Statement<unknown[], unknown>;

/** Distinct SQL texts kept; the service's statements vary with the number of keys, so the set is open-ended. */
const CAPACITY = 500;

/** Column descriptions per statement: building them costs as much as running a small query. */
const columnsOf = new WeakMap<Statement, BetterSqlite3.ColumnDefinition[]>();

/** The subset of a better-sqlite3 statement the adapter uses, with the arguments of one call. */
class BoundStatement {
  constructor(
    private readonly statement: Statement,
    private readonly args: unknown[],
  ) {}

  get reader(): boolean {
    return this.statement.reader;
  }

  columns(): BetterSqlite3.ColumnDefinition[] {
    let columns = columnsOf.get(this.statement);
    if (!columns) {
      columns = this.statement.columns();
      columnsOf.set(this.statement, columns);
    }
    return columns;
  }

  // Modes are set on every call: the statement is shared with other calls,
  // and with sqliteRows(), which reads integers as numbers.
  raw(): { all(): unknown[] } {
    return {
      all: () =>
        this.statement
          .safeIntegers(true)
          .raw(true)
          .all(...this.args),
    };
  }

  run(): BetterSqlite3.RunResult {
    return this.statement.safeIntegers(true).run(...this.args);
  }

  all(): unknown[] {
    return this.statement
      .safeIntegers(true)
      .raw(false)
      .all(...this.args);
  }

  get(): unknown {
    return this.statement
      .safeIntegers(true)
      .raw(false)
      .get(...this.args);
  }
}

class CachedStatement extends BoundStatement {
  constructor(private readonly shared: Statement) {
    super(shared, []);
  }

  bind(args: unknown[]): BoundStatement {
    return new BoundStatement(this.shared, args);
  }

  /** Rows as objects, integers as numbers (the service's ids and counts fit in one). */
  rows(args: unknown[]): Record<string, unknown>[] {
    return this.shared
      .safeIntegers(false)
      .raw(false)
      .all(...args) as Record<string, unknown>[];
  }
}

/** Whether `value` looks like a better-sqlite3 Database (the adapter keeps its connection as `client`). */
function isDatabase(value: unknown): value is BetterSqlite3.Database {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { prepare?: unknown }).prepare === 'function' &&
    typeof (value as { exec?: unknown }).exec === 'function'
  );
}

/** The connection as the service's synchronous reads use it (lib/adapter-sql-client.ts). */
export interface SqliteConnection {
  /** Whether a transaction is open on the connection (the adapter's, or one of ours). */
  readonly inTransaction: boolean;
  /** Runs one statement, prepared once per SQL text; rows as objects, integers as numbers. */
  rows(source: string, args: unknown[]): Record<string, unknown>[];
  /** Runs one statement that returns no rows (BEGIN, ROLLBACK). */
  run(source: string): void;
}

/**
 * Installs the cache on the adapter's connection and returns that
 * connection. Returns null (and changes nothing) when the adapter does not
 * look as expected, e.g. after an upgrade.
 */
export function cacheSqliteStatements(adapter: object): SqliteConnection | null {
  const db = (adapter as { client?: unknown }).client;
  if (!isDatabase(db)) return null;
  const prepare = db.prepare.bind(db) as (source: string) => Statement;
  const cache = new Map<string, Statement>();
  const cachedPrepare = (source: string): CachedStatement => {
    let statement = cache.get(source);
    if (statement) {
      // Most recently used last, so the first key is the one to evict.
      cache.delete(source);
    } else {
      statement = prepare(source);
      if (cache.size >= CAPACITY) cache.delete(cache.keys().next().value as string);
    }
    cache.set(source, statement);
    return new CachedStatement(statement);
  };
  Object.defineProperty(db, 'prepare', { value: cachedPrepare, configurable: true, writable: true });
  registerFoldCase(db);
  return {
    get inTransaction() {
      return db.inTransaction;
    },
    rows: (source, args) => cachedPrepare(source).rows(args),
    run: (source) => void cachedPrepare(source).run(),
  };
}
