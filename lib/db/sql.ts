import type { Sql } from '@prisma/client/runtime/client';

/** The part of a Prisma client the service uses: raw SQL, the same on both providers' clients. */
export interface SqlExecutor {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Sql, ...values: unknown[]): PromiseLike<T>;
  $executeRaw(query: TemplateStringsArray | Sql, ...values: unknown[]): PromiseLike<number>;
}

/** Statements that run to completion when called (an in-process database), rows as objects. */
export interface SyncSqlExecutor {
  queryRows<T>(query: Sql): T[];
}

export interface SqlClient extends SqlExecutor {
  $transaction<R>(
    fn: (tx: SqlExecutor) => Promise<R>,
    options?: { isolationLevel?: 'ReadCommitted' | 'RepeatableRead' | 'Serializable'; maxWait?: number; timeout?: number },
  ): Promise<R>;
  /**
   * Runs `fn` synchronously as one read snapshot, if the database can do
   * that right now: an in-process database with no transaction of this
   * client open (an open one could still roll back). Undefined when it
   * cannot, or when `fn` failed: then read through $transaction, which
   * reports any error as every other statement does. `fn` must only read.
   */
  $readNow?<R>(fn: (tx: SyncSqlExecutor) => R): { result: R } | undefined;
}
