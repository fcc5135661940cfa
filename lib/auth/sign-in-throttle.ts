/*
 * Slows password guessing. Every attempt is reserved before its password is
 * checked (a synchronous step, so parallel requests cannot all slip past a
 * counter read earlier) and counted as a failure until it succeeds. Three
 * budgets, each free for a few failures and then exponentially slower:
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
 * In memory, per process, bounded: the oldest entries go first.
 */

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

const MAX_TRACKED = 10_000;
const MAX_KNOWN_ADDRESSES = 16;

interface Failures {
  count: number;
  last: number;
}

class Counter {
  private readonly entries = new Map<string, Failures>();

  constructor(private readonly budget: Budget) {}

  waitMs(key: string, now: number): number {
    const failures = this.entries.get(key);
    if (!failures || failures.count < this.budget.free) return 0;
    const delay = Math.min(this.budget.maxMs, this.budget.baseMs * 2 ** (failures.count - this.budget.free));
    return Math.max(0, failures.last + delay - now);
  }

  add(key: string, now: number): void {
    const failures = this.entries.get(key);
    this.entries.delete(key);
    this.entries.set(key, { count: (failures?.count ?? 0) + 1, last: now });
    trim(this.entries);
  }

  /** Takes back a reserved attempt that turned out a success. */
  remove(key: string): void {
    const failures = this.entries.get(key);
    if (!failures) return;
    if (failures.count <= 1) this.entries.delete(key);
    else failures.count -= 1;
  }

  clear(key: string): void {
    this.entries.delete(key);
  }

  reset(): void {
    this.entries.clear();
  }
}

/** Oldest first in a Map: dropping them keeps memory bounded whatever names and addresses are sent. */
function trim(map: Map<string, unknown>): void {
  while (map.size > MAX_TRACKED) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
}

const pairs = new Counter(BUDGETS.pair);
const addresses = new Counter(BUDGETS.address);
const accounts = new Counter(BUDGETS.account);
/** Addresses each account signed in from. */
const knownAddresses = new Map<string, Set<string>>();

export interface Attempt {
  readonly account: string;
  readonly address: string;
}

export type Reservation = { ok: true; attempt: Attempt } | { ok: false; retryAfterMs: number };

/**
 * Reserves one password check for `name` from `address`, or says how long
 * to wait. A granted attempt counts as a failure until `succeeded` is called.
 */
export function reserveAttempt(name: string, address: string, now = Date.now()): Reservation {
  const account = name.toLowerCase();
  const pair = `${account}\u0000${address}`;
  const known = knownAddresses.get(account)?.has(address) ?? false;
  const wait = known
    ? pairs.waitMs(pair, now)
    : Math.max(pairs.waitMs(pair, now), addresses.waitMs(address, now), accounts.waitMs(account, now));
  if (wait > 0) return { ok: false, retryAfterMs: wait };
  pairs.add(pair, now);
  addresses.add(address, now);
  accounts.add(account, now);
  return { ok: true, attempt: { account, address } };
}

/** The password was right: forget this pair's failures and remember the address for the account. */
export function succeeded({ account, address }: Attempt): void {
  pairs.clear(`${account}\u0000${address}`);
  addresses.remove(address);
  accounts.remove(account);
  const known = knownAddresses.get(account) ?? new Set<string>();
  knownAddresses.delete(account);
  known.add(address);
  if (known.size > MAX_KNOWN_ADDRESSES) known.delete(known.values().next().value ?? address);
  knownAddresses.set(account, known);
  trim(knownAddresses);
}

/** The check never happened (the database failed): the attempt does not count. */
export function abandoned({ account, address }: Attempt): void {
  pairs.remove(`${account}\u0000${address}`);
  addresses.remove(address);
  accounts.remove(account);
}

/** For tests: forget everything. */
export function resetThrottle(): void {
  pairs.reset();
  addresses.reset();
  accounts.reset();
  knownAddresses.clear();
}
