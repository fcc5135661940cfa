import { hasRole, type Role } from '../auth/roles';
import { currentPrincipal } from '../current-principal';
import { isReadOnly } from '../config';
import { getStoreInfo } from '../services';

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
  /** A message to the session's agent through its ADK API server (the agent writes; Statehouse logs the send). */
  sendMessage: 'support',
  /** Notes on sessions: Statehouse's own data, so a store opened read-only takes them too. */
  notes: 'support',
  /** An account's own saved views of a list: a preference of whoever reads, kept in Statehouse's own database. */
  savedViews: 'viewer',
} as const satisfies Record<string, Role>;

export type DashboardWrite = keyof typeof WRITE_ROLES;

/** Writes to Statehouse's own database only: a store opened read-only takes them too. */
const OWN_DATA_WRITES: ReadonlySet<DashboardWrite> = new Set(['notes', 'savedViews']);

/** Whether whoever renders this page may make that write: pages offer only the controls that would work. */
export async function mayWrite(write: DashboardWrite): Promise<boolean> {
  // A read-only console, or a store opened read-only, refuses every write, whoever asks: no form for it.
  if (isReadOnly() || (!OWN_DATA_WRITES.has(write) && (await getStoreInfo()).readOnlyReason)) return false;
  const principal = await currentPrincipal();
  return principal !== null && hasRole(principal.role, WRITE_ROLES[write]);
}
