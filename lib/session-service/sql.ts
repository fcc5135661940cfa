import type { Sql } from '@prisma/client/runtime/client';

/** The part of a Prisma client the service uses: raw SQL, the same on both providers' clients. */
export interface SqlExecutor {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Sql, ...values: unknown[]): PromiseLike<T>;
  $executeRaw(query: TemplateStringsArray | Sql, ...values: unknown[]): PromiseLike<number>;
}

export interface SqlClient extends SqlExecutor {
  $transaction<R>(
    fn: (tx: SqlExecutor) => Promise<R>,
    options?: { isolationLevel?: 'ReadCommitted' | 'RepeatableRead' | 'Serializable'; maxWait?: number; timeout?: number },
  ): Promise<R>;
}
