// The shapes the session page reads, shared by the server that builds them
// (lib/data, the route handlers) and the browser that fetches them
// (lib/queries, components): types only, so client code can import them.
import type { Event, SessionTiers, StateChange } from '../session-service/types';

export interface SessionStateView extends SessionTiers {
  /** The session now, also with asOf: what an If-Match on the events route must name. */
  revision: number;
  lastUpdateTime: number;
  eventCount: number;
}

/** One event of a session with the state changes it caused (old → new, every tier). */
export interface TimelineItem {
  seq: number;
  event: Event;
  changes: StateChange[];
}

/** The timeline's filters: events by this author, of this invocation, whose delta touched this prefixed key. */
export interface TimelineFilters {
  author?: string;
  invocationId?: string;
  /** Prefixed as an agent writes it: `user:plan`, `app:tone`, `topic`. */
  key?: string;
  /** Text in the author, content parts, tool names or error (case-insensitive). */
  text?: string;
  /** A tool the event calls or answers. */
  tool?: string;
  /** Only events with an error. */
  errors?: boolean;
  /** Seconds: events at or after, at or before. */
  from?: number;
  to?: number;
}

export interface TimelineQuery extends TimelineFilters {
  offset?: number;
  limit?: number;
  /** Only events after this sequence number. */
  after?: number;
}

export interface EventPosition {
  seq: number;
  /** Zero-based index in the filtered timeline (ascending seq); null when the filters exclude the event or it does not exist. */
  index: number | null;
  /** Events that pass the filters. */
  total: number;
}
