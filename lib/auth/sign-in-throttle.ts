/*
 * Slows password guessing per account name: after FREE_ATTEMPTS failures in
 * a row, each further attempt must wait twice as long as the one before, up
 * to MAX_DELAY_MS. In memory, per process: a restart forgets, which only
 * matters to an attacker who can restart the server anyway.
 */

const FREE_ATTEMPTS = 5;
const BASE_DELAY_MS = 1_000;
const MAX_DELAY_MS = 5 * 60_000;
const MAX_TRACKED = 10_000;

interface Failures {
  count: number;
  last: number;
}

const failuresByName = new Map<string, Failures>();

function delayAfter(count: number): number {
  if (count < FREE_ATTEMPTS) return 0;
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (count - FREE_ATTEMPTS));
}

/** Milliseconds until `name` may try again (0: now). */
export function retryAfterMs(name: string, now = Date.now()): number {
  const failures = failuresByName.get(name.toLowerCase());
  if (!failures) return 0;
  return Math.max(0, failures.last + delayAfter(failures.count) - now);
}

export function recordFailure(name: string, now = Date.now()): void {
  const key = name.toLowerCase();
  const failures = failuresByName.get(key) ?? { count: 0, last: now };
  failuresByName.delete(key);
  failuresByName.set(key, { count: failures.count + 1, last: now });
  // Oldest first in a Map: drop them so guessing many names cannot exhaust memory.
  while (failuresByName.size > MAX_TRACKED) {
    const oldest = failuresByName.keys().next().value;
    if (oldest === undefined) break;
    failuresByName.delete(oldest);
  }
}

export function recordSuccess(name: string): void {
  failuresByName.delete(name.toLowerCase());
}
