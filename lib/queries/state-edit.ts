// React Query keys and options for the write paths: how many sessions read a
// tier, and what to refetch after a write (key histories, the state columns
// of every session page that reads what changed).
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { SessionRef } from '../session-service/store';
import type { Page, SessionSummary } from '../session-service/types';
import { historyKeys } from './history';
import { sessionKeys } from './session';
import { appApiPath } from '../paths';
import { getJson, queryString, retryTransient } from './session-api';

export type EditScope = 'app' | 'user';

/** The tier a support edit changes: an app's state, or one user's. */
export interface TierRef {
  scope: EditScope;
  appName: string;
  /** Required for user scope. */
  userId?: string;
}

export const reachKeys = {
  sessionCount: (tier: TierRef) => ['session-count', tier.appName, tier.scope === 'user' ? (tier.userId ?? '') : null] as const,
};

/** How many sessions read this tier: every session of the user, or of the app. */
export function sessionCountOptions(tier: TierRef) {
  return queryOptions({
    queryKey: reachKeys.sessionCount(tier),
    queryFn: async ({ signal }) => {
      const user = tier.scope === 'user' ? tier.userId : undefined;
      const url = `${appApiPath(tier.appName)}/sessions${queryString({ userId: user, limit: 1 })}`;
      return (await getJson<Page<SessionSummary>>(url, signal)).total;
    },
    staleTime: 10_000,
    retry: retryTransient,
  });
}

/** Every session page query of one user (or, without a user, of one app): their merged state includes the tier. */
function sessionPagesOf(appName: string, userId?: string): readonly unknown[] {
  const prefix = sessionKeys.session({ appName, userId: userId ?? '', sessionId: '' });
  return prefix.slice(0, userId === undefined ? 2 : 3);
}

/**
 * After a support edit: its history, and the state columns of every session
 * that reads the tier. (Pages that render the tier on the server get it fresh
 * with the action's response.)
 */
export async function refreshAfterEdit(client: QueryClient, tier: TierRef): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: historyKeys.app(tier.appName) }),
    client.invalidateQueries({ queryKey: sessionPagesOf(tier.appName, tier.scope === 'user' ? tier.userId : undefined) }),
  ]);
}

/** After an appended event: the session's timeline and state, and the key histories its delta may have added to. */
export async function refreshAfterAppend(client: QueryClient, ref: SessionRef): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: sessionKeys.session(ref) }),
    client.invalidateQueries({ queryKey: historyKeys.app(ref.appName) }),
  ]);
}
