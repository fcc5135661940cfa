'use client';

import { useQuery } from '@tanstack/react-query';
import { findOptions } from '@/lib/queries/directory';
import { appPath, sessionPath, userPath } from '@/lib/paths';
import type { FindHit, SearchCoverage } from '@/lib/session-service/search';

/** Results the dialog lists. */
const LIMIT = 30;

export interface SearchResult {
  kind: FindHit['kind'];
  /** The app it is in. */
  appName: string;
  /** The id the result is found by. */
  id: string;
  /** Where it lives ("in support-bot", "alice in support-bot"). */
  context: string;
  /** What matched, when it is not the id: a state key and the text around the match. */
  detail: string | null;
  href: string;
}

export interface SearchResults {
  results: SearchResult[];
  searching: boolean;
  /** How much of the store a bounded search looked through, when it stopped early. */
  coverage: SearchCoverage | null;
  error: string | null;
}

function resultOf(hit: FindHit): SearchResult {
  const detail = hit.matched === 'id' || hit.matched === 'user id' || hit.matched === 'name' ? null : `${hit.matched}: ${hit.snippet}`;
  if (hit.kind === 'session' && hit.userId !== undefined && hit.sessionId !== undefined) {
    return {
      kind: 'session',
      appName: hit.appName,
      id: hit.sessionId,
      context: `${hit.userId} in ${hit.appName}`,
      detail,
      href: sessionPath(hit.appName, hit.userId, hit.sessionId),
    };
  }
  if (hit.kind === 'user' && hit.userId !== undefined) {
    return {
      kind: 'user',
      appName: hit.appName,
      id: hit.userId,
      context: `in ${hit.appName}`,
      detail,
      href: userPath(hit.appName, hit.userId),
    };
  }
  return { kind: 'app', appName: hit.appName, id: hit.appName, context: 'app', detail, href: appPath(hit.appName) };
}

/** Apps by name; users, sessions and shared state by ids, titles, labels and state values: one request to /api/search. */
export function useSearchResults(term: string): SearchResults {
  const q = term.trim();
  const found = useQuery(findOptions(q, LIMIT));
  if (q === '') return { results: [], searching: false, coverage: null, error: null };
  return {
    results: (found.data?.hits ?? []).map(resultOf),
    searching: found.isFetching,
    coverage: found.data?.coverage ?? null,
    error: found.error?.message ?? null,
  };
}
