// The service's SqlClient straight on a Prisma driver adapter. The service
// sends only raw SQL, and through PrismaClient every statement also passed
// the query interpreter and every transaction the interactive-transaction
// manager: about 60 µs a statement and 250 µs a transaction on SQLite, more
// than the database's own work for an append (see docs/benchmarks.md). The
// adapter keeps Prisma's connection handling, type mapping and error kinds.
import { Sql } from '@prisma/client/runtime/client';
import type { ArgType, IsolationLevel, SqlDriverAdapter, SqlQuery, SqlQueryable } from '@prisma/driver-adapter-utils';
import { readableAdapterError } from './adapter-errors';
import { isPrepared, statementName } from './prepared';
import type { Provider } from './url';
import type { SqlClient, SqlExecutor, SyncSqlExecutor } from './sql';
import { traceQuery } from '../observability/tracing';
import type { SqliteConnection } from './sqlite-statement-cache';

type PrismaIsolation = 'ReadCommitted' | 'RepeatableRead' | 'Serializable';

const ISOLATION: Record<PrismaIsolation, IsolationLevel> = {
  ReadCommitted: 'READ COMMITTED',
  RepeatableRead: 'REPEATABLE READ',
  Serializable: 'SERIALIZABLE',
};

const NO_ARGS: SqlQuery = { sql: '', args: [], argTypes: [] };

// One object per kind, shared: a statement's argument types are read, never kept or changed.
const SCALAR: Record<'string' | 'int' | 'float' | 'bigint' | 'boolean' | 'datetime' | 'bytes' | 'unknown', ArgType> = {
  string: { scalarType: 'string', arity: 'scalar' },
  int: { scalarType: 'int', arity: 'scalar' },
  float: { scalarType: 'float', arity: 'scalar' },
  bigint: { scalarType: 'bigint', arity: 'scalar' },
  boolean: { scalarType: 'boolean', arity: 'scalar' },
  datetime: { scalarType: 'datetime', arity: 'scalar' },
  bytes: { scalarType: 'bytes', arity: 'scalar' },
  unknown: { scalarType: 'unknown', arity: 'scalar' },
};

function argTypeOf(value: unknown): ArgType {
  if (Array.isArray(value)) return { scalarType: value.length ? argTypeOf(value[0]).scalarType : 'unknown', arity: 'list' };
  switch (typeof value) {
    case 'string':
      return SCALAR.string;
    case 'number':
      return Number.isInteger(value) ? SCALAR.int : SCALAR.float;
    case 'bigint':
      return SCALAR.bigint;
    case 'boolean':
      return SCALAR.boolean;
    default:
      if (value instanceof Date) return SCALAR.datetime;
      if (value instanceof Uint8Array) return SCALAR.bytes;
      return SCALAR.unknown;
  }
}

function isTemplate(query: TemplateStringsArray | Sql): query is TemplateStringsArray {
  return Array.isArray(query);
}

/** A statement as the adapter takes it, with the name it is prepared under (PostgreSQL, lib/db/prepared.ts). */
export type NamedQuery = SqlQuery & { statementName?: string };

/** The adapter's statement name for a query (its `statementNameGenerator`): none for most, which run unnamed. */
export function statementNameOf(query: SqlQuery): string {
  // node-postgres runs a query without a name unprepared; the adapter's type asks for a string all the same.
  return (query as NamedQuery).statementName as string;
}

/** Placeholders as each provider's adapter expects them: `?` for SQLite, `$1` for PostgreSQL. */
function toQuery(provider: Provider, query: TemplateStringsArray | Sql, values: unknown[]): NamedQuery {
  const statement = isTemplate(query) ? new Sql(query, values) : query;
  const args = statement.values;
  if (provider === 'sqlite') return { sql: statement.sql, args, argTypes: args.map(argTypeOf) };
  const text = statement.text;
  const name = !isTemplate(query) && isPrepared(query) ? statementName(text) : undefined;
  return { sql: text, args, argTypes: args.map(argTypeOf), ...(name === undefined ? {} : { statementName: name }) };
}

/** Rows as objects keyed by column name, as PrismaClient's $queryRaw returns them. */
function toObjects(columnNames: string[], rows: unknown[][]): Record<string, unknown>[] {
  return rows.map((row) => {
    const object: Record<string, unknown> = {};
    for (let i = 0; i < columnNames.length; i++) object[columnNames[i] as string] = row[i];
    return object;
  });
}

/**
 * `serial`: one statement at a time, in call order. A transaction is one
 * connection, and node-postgres deprecates queueing queries on a client
 * (the service starts independent reads with Promise.all).
 */
function rethrow(error: unknown): never {
  throw readableAdapterError(error);
}

/** What a statement answered: its columns' names and rows (arrays). */
interface Answer {
  columnNames: string[];
  rows: unknown[][];
}

/**
 * The PostgreSQL adapter's own statement runner (`performIO`, private in its
 * types): the statement with Prisma's argument mapping, pg's type parsers and
 * its error kinds, as queryRaw and executeRaw run it. Those two also hand
 * every statement with its arguments to @prisma/debug, which keeps the last
 * 100 of them alive whatever DEBUG says (an event of megabytes, a hundred
 * times over), and map each column's type, which this client never reads
 * (no user-defined type parser is configured: lib/db/index.ts).
 */
interface PgRunner {
  performIO(query: SqlQuery): Promise<{ fields: { name: string }[]; rows: unknown[][]; rowCount: number | null }>;
}

function pgRunner(queryable: SqlQueryable): PgRunner | null {
  const runner = queryable as unknown as Partial<PgRunner>;
  return queryable.provider === 'postgres' && typeof runner.performIO === 'function' ? (runner as PgRunner) : null;
}

/** How a statement runs on `queryable`: through the adapter's own runner when it has the expected shape, else its public methods. */
function answerer(queryable: SqlQueryable): { rows(query: SqlQuery): Promise<Answer>; count(query: SqlQuery): Promise<number> } {
  const pg = pgRunner(queryable);
  if (pg) {
    return {
      async rows(query) {
        const result = await pg.performIO(query);
        return { columnNames: result.fields.map((field) => field.name), rows: result.rows };
      },
      async count(query) {
        return (await pg.performIO(query)).rowCount ?? 0;
      },
    };
  }
  return {
    async rows(query) {
      return queryable.queryRaw(query);
    },
    count: (query) => queryable.executeRaw(query),
  };
}

function executor(provider: Provider, queryable: SqlQueryable, serial: boolean): SqlExecutor {
  let tail: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
    if (!serial) return run();
    const next = tail.then(run, run);
    tail = next.catch(() => undefined);
    return next;
  };
  const run = answerer(queryable);
  return {
    $queryRaw<T>(query: TemplateStringsArray | Sql, ...values: unknown[]): Promise<T> {
      const statement = toQuery(provider, query, values);
      return inTurn(async () => {
        const result = await traceQuery(provider, statement.sql, () => run.rows(statement)).catch(rethrow);
        return toObjects(result.columnNames, result.rows) as T;
      });
    },
    $executeRaw(query: TemplateStringsArray | Sql, ...values: unknown[]): Promise<number> {
      const statement = toQuery(provider, query, values);
      return inTurn(() => traceQuery(provider, statement.sql, () => run.count(statement)).catch(rethrow));
    },
  };
}

export interface AdapterSqlClient extends SqlClient {
  $disconnect(): Promise<void>;
}

/**
 * $readNow on SQLite: the statements run on the adapter's connection,
 * synchronously, in one read transaction, when no transaction is open on
 * it. The adapter starts its transactions (BEGIN) in the same tick as it
 * takes its lock, so a connection outside a transaction has no write in
 * flight whose rows could be read and then rolled back. A read this way
 * skips what makes an adapter read cost twice the driver's: a promise, the
 * lock, argument and column typing and row mapping per statement.
 */
function readNow(connection: SqliteConnection): NonNullable<SqlClient['$readNow']> {
  const executor: SyncSqlExecutor = {
    queryRows: <T>(query: Sql) =>
      connection.rows(
        query.sql,
        query.values.map((value) => (typeof value === 'boolean' ? Number(value) : value)),
      ) as T[],
  };
  return <R>(fn: (tx: SyncSqlExecutor) => R) => {
    if (connection.inTransaction) return undefined;
    try {
      connection.run('BEGIN');
      return { result: fn(executor) };
    } catch {
      // The caller reads again through the adapter, which reports the error as it reports every other.
      return undefined;
    } finally {
      // Ends the read (nothing was written); a BEGIN that failed left nothing open.
      if (connection.inTransaction) connection.run('ROLLBACK');
    }
  };
}

/**
 * A SqlClient on a connected adapter. Transactions end with COMMIT or
 * ROLLBACK sent by this client, as PrismaClient does it (the adapters'
 * transactions do not send them: `usePhantomQuery` is false for both).
 */
export function adapterSqlClient(provider: Provider, adapter: SqlDriverAdapter, sqlite?: SqliteConnection): AdapterSqlClient {
  const base = executor(provider, adapter, false);
  return {
    ...base,
    ...(sqlite ? { $readNow: readNow(sqlite) } : {}),
    async $transaction<R>(fn: (tx: SqlExecutor) => Promise<R>, options?: { isolationLevel?: PrismaIsolation }): Promise<R> {
      // SQLite's adapter accepts no level but SERIALIZABLE, which every SQLite transaction is.
      const level = provider === 'postgresql' && options?.isolationLevel ? ISOLATION[options.isolationLevel] : undefined;
      const tx = await adapter.startTransaction(level).catch(rethrow);
      let result: R;
      try {
        result = await fn(executor(provider, tx, true));
        await tx.executeRaw({ ...NO_ARGS, sql: 'COMMIT' }).catch(rethrow);
      } catch (error) {
        try {
          await tx.executeRaw({ ...NO_ARGS, sql: 'ROLLBACK' });
        } catch {
          // The transaction may already be over (a failed COMMIT); the original error is what matters.
        } finally {
          await tx.rollback();
        }
        throw error;
      }
      await tx.commit();
      return result;
    },
    $disconnect: () => adapter.dispose(),
  };
}
