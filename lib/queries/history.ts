// React Query keys and options for state history: one key's changes, and
// every change to one user's state (edits and events), newest first.
import { keepPreviousData, queryOptions, type QueryKey } from '@tanstack/react-query';
import type { Page, Scope, StateChange } from '../session-service/types';
import { appApiPath, userApiPath } from '../paths';
import { getJson, queryString, retryTransient } from './session-api';

export const HISTORY_PAGE_SIZE = 20;

export interface KeyRef {
  appName: string;
  scope: Scope;
  userId?: string;
  sessionId?: string;
  /** The key within its tier, without prefix. */
  key: string;
}

export const historyKeys = {
  all: ['history'] as const,
  app: (appName: string) => [...historyKeys.all, appName] as const,
  key: (ref: KeyRef, page: number) =>
    [...historyKeys.app(ref.appName), 'key', ref.scope, ref.userId ?? null, ref.sessionId ?? null, ref.key, page] as const,
  user: (appName: string, userId: string, since: number | null, page: number) =>
    [...historyKeys.app(appName), 'user', userId, since, page] as const,
};

/** Page `page` of the changes `path` lists, those `filters` select; the previous page stays shown while it loads. */
function historyPageOptions<K extends QueryKey>(
  queryKey: K,
  path: string,
  filters: Record<string, string | number | null | undefined>,
  page: number,
) {
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) =>
      getJson<Page<StateChange>>(
        `${path}${queryString({ ...filters, limit: HISTORY_PAGE_SIZE, offset: page * HISTORY_PAGE_SIZE })}`,
        signal,
      ),
    placeholderData: keepPreviousData,
    retry: retryTransient,
  });
}

export function keyHistoryOptions(ref: KeyRef, page: number) {
  const filters = {
    scope: ref.scope,
    userId: ref.scope === 'app' ? undefined : ref.userId,
    sessionId: ref.scope === 'session' ? ref.sessionId : undefined,
    key: ref.key,
  };
  return historyPageOptions(historyKeys.key(ref, page), `${appApiPath(ref.appName)}/history`, filters, page);
}

/** `since`: float seconds, or null for all time. */
export function userHistoryOptions(appName: string, userId: string, since: number | null, page: number) {
  const path = `${userApiPath(appName, userId)}/history`;
  return historyPageOptions(historyKeys.user(appName, userId, since, page), path, { since }, page);
}
