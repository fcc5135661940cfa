// React Query keys and options for the session page. The server prefetches
// the same keys from lib/data (lib/queries/session-prefetch.ts), so the
// browser starts from the rendered data and then polls the route handlers.
import { queryOptions } from '@tanstack/react-query';
import type { EventPosition, SessionStateView, TimelineFilters, TimelineItem } from '../data/session-views';
import type { SessionRef } from '../session-service/store';
import type { Page } from '../session-service/types';
import { sessionApiPath } from '../paths';
import { ApiError, getJson, isFinalAnswer, queryString } from './session-api';

/** Events per timeline page: a screenful or two, small enough to answer in milliseconds. */
export const TIMELINE_PAGE_SIZE = 50;

/** How often an open session page asks for the current state (new events, edits by others). */
export const LIVE_POLL_MS = 1000;

/** Filters with every field present (null = none), so equal filters make equal query keys. */
export interface NormalFilters {
  author: string | null;
  invocationId: string | null;
  key: string | null;
  text: string | null;
  tool: string | null;
  errors: boolean;
  from: number | null;
  to: number | null;
}

export function normalFilters(filters: TimelineFilters): NormalFilters {
  return {
    author: filters.author || null,
    invocationId: filters.invocationId || null,
    key: filters.key || null,
    text: filters.text?.trim() || null,
    tool: filters.tool?.trim() || null,
    errors: filters.errors === true,
    from: filters.from ?? null,
    to: filters.to ?? null,
  };
}

/** No filter at all (what Clear sets). */
export const NO_FILTERS: NormalFilters = {
  author: null,
  invocationId: null,
  key: null,
  text: null,
  tool: null,
  errors: false,
  from: null,
  to: null,
};

export function hasFilters(filters: NormalFilters): boolean {
  return (
    filters.author !== null ||
    filters.invocationId !== null ||
    filters.key !== null ||
    filters.text !== null ||
    filters.tool !== null ||
    filters.errors ||
    filters.from !== null ||
    filters.to !== null
  );
}

export const sessionKeys = {
  session: (ref: SessionRef) => ['session', ref.appName, ref.userId, ref.sessionId] as const,
  /** The three tiers now (`null`) or right after event `asOf`. */
  state: (ref: SessionRef, asOf: number | null) => [...sessionKeys.session(ref), 'state', asOf ?? 'now'] as const,
  timeline: (ref: SessionRef) => [...sessionKeys.session(ref), 'timeline'] as const,
  timelinePage: (ref: SessionRef, filters: NormalFilters, page: number) => [...sessionKeys.timeline(ref), 'page', filters, page] as const,
  timelineCount: (ref: SessionRef, filters: NormalFilters) => [...sessionKeys.timeline(ref), 'count', filters] as const,
  position: (ref: SessionRef, filters: NormalFilters, seq: number) => [...sessionKeys.timeline(ref), 'position', filters, seq] as const,
  event: (ref: SessionRef, seq: number) => [...sessionKeys.session(ref), 'event', seq] as const,
};

/** A final answer (4xx) is said at once; anything else is retried twice. */
function retry(failures: number, error: Error): boolean {
  return !isFinalAnswer(error) && failures < 2;
}

const filterParams = (filters: NormalFilters) => ({
  author: filters.author,
  invocationId: filters.invocationId,
  key: filters.key,
  text: filters.text,
  tool: filters.tool,
  errors: filters.errors ? 1 : null,
  from: filters.from,
  to: filters.to,
});

/** The state now, polled while the page is open: its revision and event count drive the live timeline. */
export function liveStateOptions(ref: SessionRef) {
  return queryOptions({
    queryKey: sessionKeys.state(ref, null),
    retry,
    queryFn: ({ signal }) => getJson<SessionStateView>(`${sessionApiPath(ref)}/state${queryString({ preview: 1 })}`, signal),
    // A deleted session stays deleted: stop asking.
    refetchInterval: (query) => (query.state.error instanceof ApiError && query.state.error.status === 404 ? false : LIVE_POLL_MS),
    staleTime: 0,
  });
}

/** An answer that does not change under its key: fetched once (retried as `retry` says), again only when invalidated. */
function keptAnswer<const Key extends readonly unknown[], T>(queryKey: Key, fetch: (signal: AbortSignal) => Promise<T>) {
  return queryOptions({ queryKey, retry, queryFn: ({ signal }) => fetch(signal), staleTime: Infinity });
}

/** The tiers right after an event: they never change (the log is append-only). */
export function stateAsOfOptions(ref: SessionRef, seq: number) {
  const url = `${sessionApiPath(ref)}/state${queryString({ asOf: seq, preview: 1 })}`;
  return keptAnswer(sessionKeys.state(ref, seq), (signal) => getJson<SessionStateView>(url, signal));
}

/** One page of the timeline. A full page never changes; the live view invalidates the last, partial one. */
export function timelinePageOptions(ref: SessionRef, filters: NormalFilters, page: number) {
  const query = { ...filterParams(filters), offset: page * TIMELINE_PAGE_SIZE, limit: TIMELINE_PAGE_SIZE, preview: 1 };
  const url = `${sessionApiPath(ref)}/timeline${queryString(query)}`;
  return keptAnswer(sessionKeys.timelinePage(ref, filters, page), (signal) => getJson<Page<TimelineItem>>(url, signal));
}

/** How many events pass the filters; invalidated whenever the session's revision moves. */
export function timelineCountOptions(ref: SessionRef, filters: NormalFilters) {
  const url = `${sessionApiPath(ref)}/timeline${queryString({ ...filterParams(filters), limit: 1, preview: 1 })}`;
  return keptAnswer(sessionKeys.timelineCount(ref, filters), async (signal) => (await getJson<Page<TimelineItem>>(url, signal)).total);
}

export function positionOptions(ref: SessionRef, filters: NormalFilters, seq: number) {
  const url = `${sessionApiPath(ref)}/timeline/position${queryString({ ...filterParams(filters), seq })}`;
  return keptAnswer(sessionKeys.position(ref, filters, seq), (signal) => getJson<EventPosition>(url, signal));
}

export function eventOptions(ref: SessionRef, seq: number) {
  const url = `${sessionApiPath(ref)}/events/${seq}${queryString({ preview: 1 })}`;
  return keptAnswer(sessionKeys.event(ref, seq), (signal) => getJson<TimelineItem>(url, signal));
}

/** The page a timeline index falls on. */
export const pageOf = (index: number) => Math.floor(index / TIMELINE_PAGE_SIZE);
