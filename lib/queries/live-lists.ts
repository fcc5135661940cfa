// Polling for the server-rendered list pages (apps, an app, a user): a cheap
// read whose answer changes whenever what the page shows does. The page
// renders again when it changes (components/lists/live-refresh.tsx).
import { queryOptions } from '@tanstack/react-query';
import { appApiPath, userApiPath } from '../paths';
import { getJson, queryString } from './session-api';

/** How often the list pages look for changes. */
export const LIST_POLL_MS = 3000;

/**
 * `url`'s answer as a fingerprint: the newest session and the count (a write
 * moves a session to the top of the recent-first list, a delete changes the
 * count), or a tier's entries with their last changes.
 */
export function watchOptions(url: string) {
  return queryOptions({
    queryKey: ['watch', url] as const,
    queryFn: async ({ signal }): Promise<Watched> => {
      const answer = await getJson<unknown>(url, signal);
      return { fingerprint: JSON.stringify(answer), latest: latestTime(answer) };
    },
    refetchInterval: LIST_POLL_MS,
    staleTime: 0,
    retry: 1,
  });
}

export interface Watched {
  fingerprint: string;
  /** The latest write time in the answer (float seconds, the server's clock), or 0. */
  latest: number;
}

const TIME_FIELDS = new Set(['lastUpdateTime', 'updateTime', 'time']);

/** The largest of the answer's write times, however deep. */
export function latestTime(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let latest = 0;
  for (const [name, field] of Object.entries(value)) {
    const time = TIME_FIELDS.has(name) && typeof field === 'number' ? field : latestTime(field);
    if (time > latest) latest = time;
  }
  return latest;
}

/** What changes when an app's page would: its sessions and its app state. */
export function appWatchUrls(appName: string): string[] {
  return [`${appApiPath(appName)}/sessions${queryString({ limit: 1 })}`, `${appApiPath(appName)}/state`];
}

/** What changes when a user's page would: their sessions and their user state. */
export function userWatchUrls(appName: string, userId: string): string[] {
  return [`${appApiPath(appName)}/sessions${queryString({ userId, limit: 1 })}`, `${userApiPath(appName, userId)}/state`];
}

export const APPS_WATCH_URLS = ['/api/apps'];
