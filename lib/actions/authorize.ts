import { isAuthError } from '../auth/errors';
import type { Principal } from '../auth/principal';
import type { Role } from '../auth/roles';
import { requireRole } from '../auth/server';
import type { ActionFailure } from './result';

/**
 * The signed-in principal when it has `role`, else the refusal as a value
 * (nobody signed in, or the role falls short). The same roles as the HTTP
 * API (lib/auth/policy.ts): a server action is reachable by a direct POST too.
 */
export async function principalFor(role: Role): Promise<{ ok: true; principal: Principal } | ActionFailure> {
  try {
    return { ok: true, principal: await requireRole(role) };
  } catch (error) {
    if (isAuthError(error)) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}
