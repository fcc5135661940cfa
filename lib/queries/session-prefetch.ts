// Server side of the session page's cache: fills a request's QueryClient
// with what the page shows first, under the keys the browser's queries use
// (lib/queries/session.ts), read straight from the service (lib/data).
import type { QueryClient } from '@tanstack/react-query';
import { locateEvent, readTimeline, readTimelineEvent } from '../data/session';
import { cutStateView, cutTimelineItem } from '../data/session-cut';
import { sessionStateView } from '../data/session-state';
import { unreadableDetail } from '../data/unreadable';
import type { EventPosition } from '../data/session-views';
import type { SessionRef, SessionStore } from '../session-service/store';
import { pageOf, sessionKeys, TIMELINE_PAGE_SIZE, type NormalFilters } from './session';
import type { SessionUrlState } from './session-url';

/** Every read here is cut for the page, so the store may hand over long values as previews. */
const PREVIEW = { preview: true } as const;

function filtersOf(filters: NormalFilters) {
  return {
    author: filters.author ?? undefined,
    invocationId: filters.invocationId ?? undefined,
    key: filters.key ?? undefined,
    text: filters.text ?? undefined,
    tool: filters.tool ?? undefined,
    errors: filters.errors || undefined,
    from: filters.from ?? undefined,
    to: filters.to ?? undefined,
  };
}

/**
 * The state now, the selected and compared events' states, the timeline's
 * count and the pages around where it opens (the newest events, or the
 * selected one). Failures are left to the browser, which retries and says
 * what failed.
 */
export async function prefetchSessionPage(
  queryClient: QueryClient,
  service: SessionStore,
  ref: SessionRef,
  url: SessionUrlState,
): Promise<void> {
  const tasks: Promise<unknown>[] = [
    queryClient.prefetchQuery({
      queryKey: sessionKeys.state(ref, null),
      queryFn: async () => cutStateView(ref, await sessionStateView(service, ref, undefined, PREVIEW)),
    }),
  ];
  for (const seq of [url.event, url.compare]) {
    if (seq === null) continue;
    tasks.push(
      queryClient.prefetchQuery({
        queryKey: sessionKeys.state(ref, seq),
        queryFn: async () => cutStateView(ref, await sessionStateView(service, ref, seq, PREVIEW), seq),
      }),
    );
  }
  if (url.event !== null) {
    const seq = url.event;
    tasks.push(
      queryClient.prefetchQuery({
        queryKey: sessionKeys.event(ref, seq),
        queryFn: async () => {
          const item = await readTimelineEvent(service, ref, seq, PREVIEW);
          if (!item) throw new Error(`Event ${seq} not found in session ${ref.sessionId}.`);
          return cutTimelineItem(ref, item);
        },
      }),
    );
  }
  tasks.push(prefetchTimeline(queryClient, service, ref, url));
  await Promise.all(tasks);
}

async function prefetchTimeline(queryClient: QueryClient, service: SessionStore, ref: SessionRef, url: SessionUrlState) {
  const filters = filtersOf(url.filters);
  const position =
    url.event === null
      ? null
      : await queryClient.fetchQuery<EventPosition>({
          queryKey: sessionKeys.position(ref, url.filters, url.event),
          queryFn: () => locateEvent(service, ref, filters, url.event ?? 0),
        });
  const total: number =
    position?.total ??
    (await queryClient.fetchQuery<number>({
      queryKey: sessionKeys.timelineCount(ref, url.filters),
      queryFn: async () => (await readTimeline(service, ref, { ...filters, limit: 1 }, PREVIEW)).total,
    }));
  if (position) queryClient.setQueryData(sessionKeys.timelineCount(ref, url.filters), total);
  if (total === 0) return;
  // The rows around where the list opens may straddle two pages.
  const at = position?.index ?? total - 1;
  const pages = new Set([pageOf(Math.max(0, at - 10)), pageOf(Math.min(total - 1, at + 10))]);
  await Promise.all(
    [...pages].map((page) =>
      queryClient.prefetchQuery({
        queryKey: sessionKeys.timelinePage(ref, url.filters, page),
        queryFn: async () => {
          const timeline = await readTimeline(
            service,
            ref,
            { ...filters, offset: page * TIMELINE_PAGE_SIZE, limit: TIMELINE_PAGE_SIZE },
            PREVIEW,
          );
          return { ...timeline, items: timeline.items.map((item) => cutTimelineItem(ref, item)) };
        },
      }),
    ),
  );
}

/** Why the session's state cannot be read (UNREADABLE: a row of the agent's), when its prefetch failed so; otherwise null. */
export function unreadableState(queryClient: QueryClient, ref: SessionRef): string | null {
  return unreadableDetail(queryClient.getQueryState(sessionKeys.state(ref, null))?.error);
}
