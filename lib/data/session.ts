// Reads behind the session page: the timeline (events with the per-key
// changes they caused), one event, and where an event sits in a filtered
// timeline. The route handlers under /api/.../sessions/{id}/ answer with
// exactly these shapes, and the page prefetches them on the server, so the
// browser's React Query cache starts from the same data it would fetch.
import { cache } from 'react';
import type { EventQuery, SessionRef, SessionStore } from '../session-service/store';
import type { Page, SessionSummary, StateChange, StoredEvent } from '../session-service/types';
import type { ValueReadOptions } from '../session-service/value-preview';
import type { EventPosition, TimelineFilters, TimelineItem, TimelineQuery } from './session-views';
import { requireViewer } from '../current-principal';
import { getStore } from '../services';

/** The session's summary, or null when it does not exist; one read per request (the layout and the page both ask). */
export const getSessionSummary = cache(async (appName: string, userId: string, sessionId: string): Promise<SessionSummary | null> => {
  await requireViewer();
  return (await getStore()).getSessionSummary({ appName, userId, sessionId });
});

function eventQuery(filters: TimelineFilters): EventQuery {
  const { author, invocationId, key: touchedKey, text, tool, errors, from, to } = filters;
  return { author, invocationId, touchedKey, text, tool, errors, from, to };
}

async function withChanges(
  service: SessionStore,
  ref: SessionRef,
  events: StoredEvent[],
  options: ValueReadOptions,
): Promise<TimelineItem[]> {
  const changes = await service.listEventChanges(
    ref,
    events.map((stored) => stored.seq),
    options,
  );
  const bySeq = new Map<number, StateChange[]>();
  for (const change of changes) {
    if (change.eventSeq === null) continue;
    const list = bySeq.get(change.eventSeq);
    if (list) list.push(change);
    else bySeq.set(change.eventSeq, [change]);
  }
  return events.map(({ seq, event }) => ({ seq, event, changes: bySeq.get(seq) ?? [] }));
}

/**
 * A page of the timeline, oldest first (by sequence number). NOT_FOUND for an
 * absent session. `preview`: long values may be precut (for cutTimelineItem).
 */
export async function readTimeline(
  service: SessionStore,
  ref: SessionRef,
  query: TimelineQuery,
  options: ValueReadOptions = {},
): Promise<Page<TimelineItem>> {
  const page = await service.listEvents(ref, {
    ...eventQuery(query),
    afterSeq: query.after,
    offset: query.offset,
    limit: query.limit,
    preview: options.preview,
  });
  return { items: await withChanges(service, ref, page.items, options), total: page.total };
}

/** One event by sequence number, with its changes; null when the session has no such event. */
export async function readTimelineEvent(
  service: SessionStore,
  ref: SessionRef,
  seq: number,
  options: ValueReadOptions = {},
): Promise<TimelineItem | null> {
  const page = await service.listEvents(ref, { afterSeq: seq - 1, limit: 1, preview: options.preview });
  const stored = page.items[0];
  if (!stored || stored.seq !== seq) return null;
  const [item] = await withChanges(service, ref, [stored], options);
  return item ?? null;
}

/**
 * Where an event sits among the events that pass the filters, so the
 * timeline can scroll to it: counts of matching events from it on and after it.
 */
export async function locateEvent(service: SessionStore, ref: SessionRef, filters: TimelineFilters, seq: number): Promise<EventPosition> {
  const query = eventQuery(filters);
  // Only the totals are used: the one event each read returns may come as a preview.
  const count = async (afterSeq?: number) => (await service.listEvents(ref, { ...query, afterSeq, limit: 1, preview: true })).total;
  const [total, fromIt, afterIt] = await Promise.all([count(), count(seq - 1), count(seq)]);
  const matches = fromIt - afterIt === 1;
  return { seq, index: matches ? total - fromIt : null, total };
}
