'use client';

import { useQueries, useQuery } from '@tanstack/react-query';
import { appsOptions, sessionsOptions, usersOptions } from '@/lib/queries/directory';
import { appPath, sessionPath, userPath } from '@/lib/paths';

/** Apps whose users and sessions a search reads (the most recently active ones): two requests each. */
export const SEARCHED_APPS = 20;
const PER_APP = 5;
const PER_GROUP = 8;

export interface SearchResult {
  kind: 'app' | 'user' | 'session';
  /** The id the result is found by. */
  id: string;
  /** Where it lives ("in support-bot", "alice in support-bot"). */
  context: string;
  href: string;
}

export interface SearchResults {
  results: SearchResult[];
  searching: boolean;
  /** Apps left out of the user and session search (beyond the most recently active). */
  skippedApps: number;
  error: string | null;
}

/** Apps by name, and users and sessions by id, across the most recently active apps. */
export function useSearchResults(term: string): SearchResults {
  const q = term.trim();
  const apps = useQuery(appsOptions());
  const searched = q === '' ? [] : (apps.data ?? []).slice(0, SEARCHED_APPS);
  const users = useQueries({ queries: searched.map((app) => usersOptions(app.appName, q, PER_APP)) });
  const sessions = useQueries({ queries: searched.map((app) => sessionsOptions(app.appName, null, q, PER_APP)) });
  if (q === '') return { results: [], searching: false, skippedApps: 0, error: apps.error?.message ?? null };

  const needle = q.toLowerCase();
  const results: SearchResult[] = [];
  for (const app of (apps.data ?? []).filter((app) => app.appName.toLowerCase().includes(needle)).slice(0, PER_GROUP)) {
    results.push({
      kind: 'app',
      id: app.appName,
      context: `${app.sessionCount.toLocaleString('en')} sessions`,
      href: appPath(app.appName),
    });
  }
  const foundUsers = searched.flatMap((app, index) => (users[index]?.data?.items ?? []).map((user) => ({ app: app.appName, user })));
  for (const { app, user } of foundUsers.slice(0, PER_GROUP)) {
    results.push({ kind: 'user', id: user.userId, context: `in ${app}`, href: userPath(app, user.userId) });
  }
  const foundSessions = searched.flatMap((app) => sessions[searched.indexOf(app)]?.data?.items ?? []);
  for (const session of foundSessions.slice(0, PER_GROUP)) {
    results.push({
      kind: 'session',
      id: session.id,
      context: `${session.userId} in ${session.appName}`,
      href: sessionPath(session.appName, session.userId, session.id),
    });
  }
  const failed = [apps, ...users, ...sessions].find((query) => query.isError);
  return {
    results,
    searching: apps.isPending || users.some((query) => query.isFetching) || sessions.some((query) => query.isFetching),
    skippedApps: Math.max(0, (apps.data?.length ?? 0) - SEARCHED_APPS),
    error: failed?.error?.message ?? null,
  };
}
