import type { Account, AccountStore } from './store';
import { countSignIn } from '../observability/metrics';

export type SignInCheck =
  { ok: true; account: Account } | { ok: false; reason: 'wrong' } | { ok: false; reason: 'throttled'; retryAfterMs: number };

/**
 * Checks a password under the sign-in throttle: the attempt is reserved
 * before the (deliberately slow) hash comparison, so parallel guesses are
 * counted as they arrive, not after they were all checked.
 */
export async function checkSignIn(store: AccountStore, name: string, password: string, address: string): Promise<SignInCheck> {
  const reservation = await store.throttle.reserve(name, address);
  if (!reservation.ok) {
    countSignIn('throttled');
    return { ok: false, reason: 'throttled', retryAfterMs: reservation.retryAfterMs };
  }
  let account: Account | null;
  try {
    account = await store.verifyCredentials(name, password);
  } catch (error) {
    // Best effort: the error that stopped the check is the one to report.
    await store.throttle.abandoned(reservation.attempt).catch(() => undefined);
    throw error;
  }
  if (!account) {
    countSignIn('wrong');
    return { ok: false, reason: 'wrong' };
  }
  countSignIn('success');
  await store.throttle.succeeded(reservation.attempt);
  return { ok: true, account };
}
