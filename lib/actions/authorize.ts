import { isAuthError, readOnlyRefusal } from '../auth/errors';
import type { Principal } from '../auth/principal';
import { hasRole, type Role } from '../auth/roles';
import { currentPrincipal, requireRole } from '../auth/server';
import { isReadOnly } from '../config';
import { getStoreInfo } from '../services';
import type { ActionFailure } from '../commands/result';

/**
 * The role each dashboard write needs, as the HTTP API's policy has it:
 * appending and user state for support, app state (every user of the app
 * reads it) for admins.
 */
export const WRITE_ROLES = {
  appendEvent: 'support',
  userState: 'support',
  appState: 'admin',
  /** Fork, rewind, export, import, titles and labels. */
  sessionOps: 'support',
  /** Deleting sessions and events for good. */
  prune: 'admin',
} as const satisfies Record<string, Role>;

export type DashboardWrite = keyof typeof WRITE_ROLES;

/** Whether whoever renders this page may make that write: pages offer only the controls that would work. */
export async function mayWrite(write: DashboardWrite): Promise<boolean> {
  // A read-only console, or a store opened read-only, refuses every write, whoever asks: no form for it.
  if (isReadOnly() || (await getStoreInfo()).readOnlyReason) return false;
  const principal = await currentPrincipal();
  return principal !== null && hasRole(principal.role, WRITE_ROLES[write]);
}

/**
 * The signed-in principal when it has `role`, else the refusal as a value
 * (nobody signed in, or the role falls short). The same roles as the HTTP
 * API (lib/auth/policy.ts): a server action is reachable by a direct POST too.
 * Every write action passes here, so a read-only console refuses them all here.
 */
export async function principalFor(role: Role): Promise<{ ok: true; principal: Principal } | ActionFailure> {
  try {
    if (isReadOnly()) throw readOnlyRefusal();
    return { ok: true, principal: await requireRole(role) };
  } catch (error) {
    if (isAuthError(error)) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}
