// React Query options for finding things by name: the apps, an app's users and
// sessions, as the global search and the preview's session picker list them.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { FindResult } from '../session-service/search';
import type { AppSummary, Page, SessionSummary, UserSummary } from '../session-service/types';
import { appApiPath } from '../paths';
import { getJson, queryString, retryTransient } from './session-api';

export const directoryKeys = {
  all: ['directory'] as const,
  apps: () => [...directoryKeys.all, 'apps'] as const,
  find: (q: string, limit: number) => [...directoryKeys.all, 'find', q, limit] as const,
  users: (appName: string, q: string, limit: number) => [...directoryKeys.all, 'users', appName, q, limit] as const,
  sessions: (appName: string, userId: string | null, q: string, limit: number) =>
    [...directoryKeys.all, 'sessions', appName, userId, q, limit] as const,
};

/** Every app with its counts, most recently active first. */
export function appsOptions() {
  return queryOptions({
    queryKey: directoryKeys.apps(),
    queryFn: async ({ signal }) => {
      const { items } = await getJson<{ items: AppSummary[] }>('/api/apps', signal);
      return [...items].sort((a, b) => (b.lastUpdateTime ?? 0) - (a.lastUpdateTime ?? 0));
    },
    staleTime: 10_000,
    retry: retryTransient,
  });
}

/** An app's users whose id contains `q` (case-insensitive), most recently active first. */
export function usersOptions(appName: string, q: string, limit: number) {
  return queryOptions({
    queryKey: directoryKeys.users(appName, q, limit),
    queryFn: ({ signal }) => getJson<Page<UserSummary>>(`${appApiPath(appName)}/users${queryString({ q: q || undefined, limit })}`, signal),
    staleTime: 10_000,
    placeholderData: keepPreviousData,
    retry: retryTransient,
  });
}

/** An app's (or one user's) sessions whose id contains `q`, most recently updated first. */
export function sessionsOptions(appName: string, userId: string | null, q: string, limit: number) {
  return queryOptions({
    queryKey: directoryKeys.sessions(appName, userId, q, limit),
    queryFn: ({ signal }) =>
      getJson<Page<SessionSummary>>(
        `${appApiPath(appName)}/sessions${queryString({ userId: userId ?? undefined, q: q || undefined, limit })}`,
        signal,
      ),
    staleTime: 10_000,
    placeholderData: keepPreviousData,
    retry: retryTransient,
  });
}

/** The header search: apps, users and sessions whose names, ids, titles, labels or state values contain `q`. */
export function findOptions(q: string, limit: number) {
  return queryOptions({
    queryKey: directoryKeys.find(q, limit),
    queryFn: ({ signal }) => getJson<FindResult>(`/api/search${queryString({ q, limit })}`, signal),
    staleTime: 10_000,
    placeholderData: keepPreviousData,
    retry: retryTransient,
    enabled: q !== '',
  });
}
