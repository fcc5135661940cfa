/** A connection checked out of a pool (pg's PoolClient, mysql2's PoolConnection). */
export interface PooledConnection {
  query(sql: string): Promise<unknown>;
  release(): void;
}

/**
 * begin, the batch, COMMIT on the connection; ROLLBACK on any error (a
 * rollback that fails too leaves the first error to report); the
 * connection goes back to its pool either way.
 */
export async function pooledTransaction<R>(connection: PooledConnection, begin: string, fn: () => Promise<R>): Promise<R> {
  try {
    await connection.query(begin);
    const result = await fn();
    await connection.query('COMMIT');
    return result;
  } catch (error) {
    await connection.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    connection.release();
  }
}
