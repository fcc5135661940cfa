/*
 * Slows password guessing. Every attempt is reserved before its password is
 * checked (one transaction that holds the budgets' rows, so parallel requests
 * cannot all slip past a count read earlier) and counted as a failure until
 * it succeeds. Three budgets, each free for a few failures and then
 * exponentially slower:
 *
 * - per account and client address: one place guessing one account;
 * - per client address: one place guessing across account names;
 * - per account, from every address: guessing spread over many addresses.
 *
 * An address that signed in to the account before answers only to the first
 * budget for it: someone hammering the account from elsewhere, or guessing
 * other names from the same address (everyone behind one proxy shares it
 * unless STATEHOUSE_TRUSTED_PROXIES names the proxy), slows themselves, not
 * the account's owner.
 *
 * Every delay is capped: failures slow an account down, never lock it.
 * The counts live in Statehouse's database, so every server over it counts
 * the same guesses; counts untouched for a day are dropped.
 */
import { join, sqltag as sql } from '@prisma/client/runtime/client';
import type { SqlClient, SqlExecutor } from '../db/sql';
import { toNumber } from '../stores/native/dialect';

interface Budget {
  /** Failures allowed before any wait. */
  free: number;
  /** The wait after the first failure beyond `free`; it doubles with each further one. */
  baseMs: number;
  maxMs: number;
}

export const BUDGETS = {
  pair: { free: 5, baseMs: 1_000, maxMs: 60_000 },
  address: { free: 20, baseMs: 1_000, maxMs: 5 * 60_000 },
  account: { free: 10, baseMs: 1_000, maxMs: 30_000 },
} as const satisfies Record<string, Budget>;

const MAX_KNOWN_ADDRESSES = 16;
/** Failure counts untouched this long are dropped (the longest wait is minutes). */
const FORGET_AFTER_MS = 24 * 60 * 60_000;

interface Failures {
  count: number;
  /** Milliseconds since the epoch. */
  last: number;
}

function waitMs(budget: Budget, failures: Failures | undefined, now: number): number {
  if (!failures || failures.count < budget.free) return 0;
  const delay = Math.min(budget.maxMs, budget.baseMs * 2 ** (failures.count - budget.free));
  return Math.max(0, failures.last + delay - now);
}

export interface Attempt {
  readonly account: string;
  readonly address: string;
}

export type Reservation = { ok: true; attempt: Attempt } | { ok: false; retryAfterMs: number };

/** The rows' keys: JSON keeps any name or address (NUL included, which PostgreSQL text refuses) unambiguous. */
function keysOf({ account, address }: Attempt) {
  return {
    pair: `pair:${JSON.stringify([account, address])}`,
    address: `address:${JSON.stringify(address)}`,
    account: `account:${JSON.stringify(account)}`,
  };
}

/** Takes back one counted failure of each key (a success, or a check that never happened). */
async function uncount(tx: SqlExecutor, keys: string[]): Promise<void> {
  const list = join(keys);
  await tx.$executeRaw(sql`UPDATE sign_in_failures SET count = count - 1 WHERE key IN (${list})`);
  await tx.$executeRaw(sql`DELETE FROM sign_in_failures WHERE key IN (${list}) AND count <= 0`);
}

export class SignInThrottle {
  constructor(private readonly client: SqlClient) {}

  /**
   * Reserves one password check for `name` from `address`, or says how long
   * to wait. A granted attempt counts as a failure until `succeeded` is called.
   */
  reserve(name: string, address: string, now = Date.now()): Promise<Reservation> {
    const attempt = { account: name.toLowerCase(), address };
    const keys = keysOf(attempt);
    const list = join([keys.pair, keys.address, keys.account]);
    return this.client.$transaction(async (tx) => {
      await tx.$executeRaw(
        sql`INSERT INTO sign_in_failures (key, count, last_time) VALUES (${keys.pair}, 0, 0), (${keys.address}, 0, 0), (${keys.account}, 0, 0)
            ON CONFLICT (key) DO NOTHING`,
      );
      // Holds the three rows until the transaction ends (PostgreSQL; on SQLite the insert above already holds
      // the database's write lock), so parallel attempts through any server are counted one after another.
      await tx.$executeRaw(sql`UPDATE sign_in_failures SET count = count WHERE key IN (${list})`);
      const rows = await tx.$queryRaw<{ key: string; count: unknown; last_time: unknown }[]>(
        sql`SELECT key, count, last_time FROM sign_in_failures WHERE key IN (${list})`,
      );
      const failures = new Map(rows.map((row) => [row.key, { count: toNumber(row.count), last: toNumber(row.last_time) * 1000 }]));
      const known = await tx.$queryRaw<unknown[]>(
        sql`SELECT 1 AS known FROM sign_in_known_addresses WHERE account = ${attempt.account} AND address = ${address}`,
      );
      const pairWait = waitMs(BUDGETS.pair, failures.get(keys.pair), now);
      const wait =
        known.length > 0
          ? pairWait
          : Math.max(
              pairWait,
              waitMs(BUDGETS.address, failures.get(keys.address), now),
              waitMs(BUDGETS.account, failures.get(keys.account), now),
            );
      if (wait > 0) return { ok: false, retryAfterMs: wait };
      await tx.$executeRaw(sql`UPDATE sign_in_failures SET count = count + 1, last_time = ${now / 1000} WHERE key IN (${list})`);
      await tx.$executeRaw(sql`DELETE FROM sign_in_failures WHERE last_time < ${(now - FORGET_AFTER_MS) / 1000}`);
      return { ok: true, attempt };
    });
  }

  /** The password was right: forget this pair's failures and remember the address for the account. */
  succeeded(attempt: Attempt, now = Date.now()): Promise<void> {
    const keys = keysOf(attempt);
    const { account, address } = attempt;
    return this.client.$transaction(async (tx) => {
      await tx.$executeRaw(sql`DELETE FROM sign_in_failures WHERE key = ${keys.pair}`);
      await uncount(tx, [keys.address, keys.account]);
      await tx.$executeRaw(
        sql`INSERT INTO sign_in_known_addresses (account, address, last_time) VALUES (${account}, ${address}, ${now / 1000})
            ON CONFLICT (account, address) DO UPDATE SET last_time = excluded.last_time`,
      );
      await tx.$executeRaw(
        sql`DELETE FROM sign_in_known_addresses WHERE account = ${account} AND address NOT IN (
              SELECT address FROM sign_in_known_addresses WHERE account = ${account} ORDER BY last_time DESC LIMIT ${MAX_KNOWN_ADDRESSES})`,
      );
    });
  }

  /** The check never happened (the database failed): the attempt does not count. */
  abandoned(attempt: Attempt): Promise<void> {
    const keys = keysOf(attempt);
    return this.client.$transaction((tx) => uncount(tx, [keys.pair, keys.address, keys.account]));
  }

  /** For tests: forget everything. */
  async reset(): Promise<void> {
    await this.client.$executeRaw(sql`DELETE FROM sign_in_failures`);
    await this.client.$executeRaw(sql`DELETE FROM sign_in_known_addresses`);
  }
}
