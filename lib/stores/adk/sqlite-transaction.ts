import type Database from 'better-sqlite3';
import type { AgentQuery } from './agent-db-types';

/** Runs the batch in the transaction open on db: commits, or rolls back and rethrows. */
export async function finishTransaction<R>(db: Database.Database, q: AgentQuery, fn: (q: AgentQuery) => Promise<R>): Promise<R> {
  try {
    const result = await fn(q);
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
