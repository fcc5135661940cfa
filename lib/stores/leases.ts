// Leases in Statehouse's own database (the `leases` table): background work
// that one server at a time may do, among servers sharing the database. Times
// are the database's clock, so the servers' clocks need not agree.
import { sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { SqlExecutor } from '../db/sql';
import type { Dialect } from './native/dialect';

/** Who asks for a lease, and for how long a claim or renewal holds it. */
export interface LeaseHolder {
  holder: string;
  ms: number;
}

/** A write that needed the lease, refused because another holder has it now. */
export class LeaseLostError extends Error {
  constructor(name: string) {
    super(`The lease ${name} is held by another server.`);
    this.name = 'LeaseLostError';
  }
}

function databaseNow(dialect: Dialect): Sql {
  return dialect === 'postgresql'
    ? sql`CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)`
    : sql`((julianday('now') - 2440587.5) * 86400.0)`;
}

/** Takes the lease when it is free or expired, or renews it for its holder; whether `lease.holder` holds it now. */
export async function claimLease(db: SqlExecutor, dialect: Dialect, name: string, lease: LeaseHolder): Promise<boolean> {
  const now = databaseNow(dialect);
  const changed = await db.$executeRaw(
    sql`INSERT INTO leases (name, holder, expire_time) VALUES (${name}, ${lease.holder}, ${now} + ${lease.ms / 1000})
        ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expire_time = excluded.expire_time
        WHERE leases.holder = excluded.holder OR leases.expire_time < ${now}`,
  );
  return changed > 0;
}

/**
 * Renews the lease inside the transaction of a write that needs it; throws
 * LeaseLostError when another holder took it over, so the write rolls back.
 * On PostgreSQL the renewal locks the lease's row until the write commits, so
 * no one takes it over in between.
 */
export async function renewLeaseOrThrow(tx: SqlExecutor, dialect: Dialect, name: string, lease: LeaseHolder): Promise<void> {
  const renewed = await tx.$executeRaw(
    sql`UPDATE leases SET expire_time = ${databaseNow(dialect)} + ${lease.ms / 1000} WHERE name = ${name} AND holder = ${lease.holder}`,
  );
  if (renewed === 0) throw new LeaseLostError(name);
}

/** Gives the lease up, so another server takes it over without waiting for it to expire. */
export async function releaseLease(db: SqlExecutor, name: string, holder: string): Promise<void> {
  await db.$executeRaw(sql`DELETE FROM leases WHERE name = ${name} AND holder = ${holder}`);
}
