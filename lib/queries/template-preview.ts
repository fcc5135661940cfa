// React Query options for the template preview: the events a preview can be
// rendered "as of" (newest first).
import { queryOptions } from '@tanstack/react-query';
import type { SessionRef } from '../session-service/store';
import type { Page, StoredEvent } from '../session-service/types';
import { sessionKeys } from './session';
import { sessionApiPath } from '../paths';
import { getJson, queryString, retryTransient } from './session-api';

/** How many of the newest events the "as of" list offers; older ones are reached by number. */
export const AS_OF_CHOICES = 200;

export function recentEventsOptions(ref: SessionRef) {
  return queryOptions({
    queryKey: [...sessionKeys.session(ref), 'recent-events'] as const,
    queryFn: ({ signal }) =>
      getJson<Page<StoredEvent>>(`${sessionApiPath(ref)}/events${queryString({ order: 'desc', limit: AS_OF_CHOICES })}`, signal),
    retry: retryTransient,
  });
}
