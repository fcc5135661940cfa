// React Query keys and options for state history: one key's changes, and
// every change to one user's state (edits and events), newest first.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Page, Scope, StateChange } from '../session-service/types';
import { ApiError, getJson, queryString } from './session-api';

export const HISTORY_PAGE_SIZE = 20;

/**
 * React Query's retry policy for reads whose 4xx answer is final (an unknown
 * session or user does not appear by asking again): say so at once, retry
 * only what may pass (network, 5xx).
 */
export function retryTransient(failureCount: number, error: Error): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 3;
}

export interface KeyRef {
  appName: string;
  scope: Scope;
  userId?: string;
  sessionId?: string;
  /** The key within its tier, without prefix. */
  key: string;
}

/** `/api/apps/{app}`, the app name encoded as one path segment. */
export function appApiPath(appName: string): string {
  return `/api/apps/${encodeURIComponent(appName)}`;
}

export const historyKeys = {
  all: ['history'] as const,
  app: (appName: string) => [...historyKeys.all, appName] as const,
  key: (ref: KeyRef, page: number) =>
    [...historyKeys.app(ref.appName), 'key', ref.scope, ref.userId ?? null, ref.sessionId ?? null, ref.key, page] as const,
  user: (appName: string, userId: string, since: number | null, page: number) =>
    [...historyKeys.app(appName), 'user', userId, since, page] as const,
};

export function keyHistoryOptions(ref: KeyRef, page: number) {
  return queryOptions({
    queryKey: historyKeys.key(ref, page),
    queryFn: ({ signal }) =>
      getJson<Page<StateChange>>(
        `${appApiPath(ref.appName)}/history${queryString({
          scope: ref.scope,
          userId: ref.scope === 'app' ? undefined : ref.userId,
          sessionId: ref.scope === 'session' ? ref.sessionId : undefined,
          key: ref.key,
          limit: HISTORY_PAGE_SIZE,
          offset: page * HISTORY_PAGE_SIZE,
        })}`,
        signal,
      ),
    placeholderData: keepPreviousData,
    retry: retryTransient,
  });
}

/** `since`: float seconds, or null for all time. */
export function userHistoryOptions(appName: string, userId: string, since: number | null, page: number) {
  return queryOptions({
    queryKey: historyKeys.user(appName, userId, since, page),
    queryFn: ({ signal }) =>
      getJson<Page<StateChange>>(
        `${appApiPath(appName)}/users/${encodeURIComponent(userId)}/history${queryString({
          since,
          limit: HISTORY_PAGE_SIZE,
          offset: page * HISTORY_PAGE_SIZE,
        })}`,
        signal,
      ),
    placeholderData: keepPreviousData,
    retry: retryTransient,
  });
}
