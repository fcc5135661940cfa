import { isAuthError } from '../auth/errors';
import type { Role } from '../auth/roles';
import { requireRole } from '../auth/server';
import type { ActionFailure } from './result';

/**
 * The refusal when the signed-in account may not do this (or nobody is
 * signed in), as a value; null when it may. The same roles as the HTTP API
 * (lib/auth/policy.ts): a server action is reachable by a direct POST too.
 */
export async function refusalFor(role: Role): Promise<ActionFailure | null> {
  try {
    await requireRole(role);
    return null;
  } catch (error) {
    if (isAuthError(error)) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}
