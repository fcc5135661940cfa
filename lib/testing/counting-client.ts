// A SqlClient that counts what it sends: statements (inside transactions
// too) and transactions, each of which costs a BEGIN and a COMMIT round trip.
import type { Sql } from '@prisma/client/runtime/client';
import type { SqlClient, SqlExecutor, SyncSqlExecutor } from '../db/sql';

export interface CountingClient {
  client: SqlClient;
  /** Statements sent since the last reset. */
  statements(): number;
  /** Transactions opened since the last reset (synchronous snapshot reads included). */
  transactions(): number;
  reset(): void;
}

export function countingClient(inner: SqlClient): CountingClient {
  let statements = 0;
  let transactions = 0;
  const executor = (tx: SqlExecutor): SqlExecutor => ({
    ...tx,
    $queryRaw: <T>(query: TemplateStringsArray | Sql, ...values: unknown[]) => {
      statements++;
      return tx.$queryRaw<T>(query, ...values);
    },
    $executeRaw: (query: TemplateStringsArray | Sql, ...values: unknown[]) => {
      statements++;
      return tx.$executeRaw(query, ...values);
    },
  });
  const sync = (tx: SyncSqlExecutor): SyncSqlExecutor => ({
    ...tx,
    queryRows: <T>(query: Sql) => {
      statements++;
      return tx.queryRows<T>(query);
    },
  });
  const client: SqlClient = {
    ...inner,
    ...executor(inner),
    $transaction: (fn, options) => {
      transactions++;
      return inner.$transaction((tx) => fn(executor(tx)), options);
    },
  };
  const readNow = inner.$readNow?.bind(inner);
  if (readNow) {
    client.$readNow = (fn) => {
      transactions++;
      return readNow((tx) => fn(sync(tx)));
    };
  }
  return {
    client,
    statements: () => statements,
    transactions: () => transactions,
    reset: () => {
      statements = 0;
      transactions = 0;
    },
  };
}
