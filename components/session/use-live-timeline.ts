'use client';

import { useQueryClient, type Query } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { TimelineItem } from '@/lib/data/session-views';
import { sessionKeys, TIMELINE_PAGE_SIZE } from '@/lib/queries/session';
import type { SessionRef } from '@/lib/session-service/store';
import type { Page } from '@/lib/session-service/types';

/** Counts and the last, partial page can grow; full pages and positions of existing events never change. */
function canGrow(query: Query): boolean {
  const kind = query.queryKey[5];
  if (kind === 'count') return true;
  if (kind !== 'page') return false;
  const page = query.state.data as Page<TimelineItem> | undefined;
  return page === undefined || page.items.length < TIMELINE_PAGE_SIZE;
}

/**
 * When the polled revision moves (an event was appended), refetches what an
 * append can change in the timeline; everything else stays cached.
 */
export function useLiveTimeline(ref: SessionRef, revision: number | undefined): void {
  const queryClient = useQueryClient();
  const seen = useRef(revision);
  useEffect(() => {
    if (revision === undefined) return;
    if (seen.current !== undefined && seen.current !== revision) {
      void queryClient.invalidateQueries({ queryKey: sessionKeys.timeline(ref), predicate: canGrow });
    }
    seen.current = revision;
  }, [queryClient, ref, revision]);
}
