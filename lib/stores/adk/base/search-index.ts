// The search index of a store Statehouse does not own: the agent's session
// ids and state values copied into Statehouse's own database (search_docs
// under the store's id, ../search-index-log.ts), since nothing may be added to
// the agent's. The follower (search-follower.ts) fills and keeps it; find
// (search.ts) reads it.
import type { FindHit } from '../../../session-service/search';
import type { LeaseHolder } from '../../leases';

/** A session by name, in the agent's key order: app, user, id. */
export type SessionKey = [appName: string, userId: string, sessionId: string];

/** One session as the index holds it: its docs and the marker it was indexed at. */
export interface IndexedSession {
  key: SessionKey;
  /** Update time and a hash of the state: read again, the session is indexed again only when this differs. */
  marker: string;
  /** State values of the session's own keys (unprefixed key, JSON text cut to the index's length). */
  values: { key: string; body: string }[];
  /** Its events' text: the docs of events after `from` (their place in the session) are replaced by `docs`; `count` are indexed after. */
  events: SessionEvents;
}

export interface SessionEvents {
  from: number;
  count: number;
  docs: { seq: number; body: string }[];
}

/** What the index holds of a session: the marker it was indexed at, and how many of its events. */
export interface IndexedMark {
  marker: string;
  events: number;
}

/** An event whose text holds what was searched for, as the index has it. */
export interface EventDoc {
  userId: string;
  sessionId: string;
  seq: number;
  body: string;
}

/**
 * Where the fill got to: on SQLite tables with rowids the last session's
 * rowid (the fill reads in rowid order: some families' keys have no index in
 * the order (app, user, id)), elsewhere its key, in key order.
 */
export type FillCursor = SessionKey | number;

export interface IndexProgress {
  /** Which database the docs are of; a different one is indexed anew. */
  source: string;
  /** The last session the fill indexed; null before the first, and once filled. */
  cursor: FillCursor | null;
  filled: boolean;
  /** Float seconds: sessions changed at or after this (less a margin) are read again by the follower. */
  watermark: number;
  /**
   * SQLite: the last rowid of the agent's events table read; events after it
   * are read whatever their session's update time, after a restart too. Null
   * where the tables are not walked by rowid.
   */
  eventsAfter: number | null;
}

export interface SearchIndex {
  /**
   * Takes or renews the lease on following the store (one server at a time
   * fills and follows it); whether the holder has it. `reset` and `write`
   * renew it too, and throw LeaseLostError without writing once another
   * holder has it.
   */
  claim(storeId: string, lease: LeaseHolder): Promise<boolean>;
  /** Gives the lease up (the server stops), so another takes over at once. */
  release(storeId: string, holder: string): Promise<void>;
  progress(storeId: string): Promise<IndexProgress | null>;
  /** Drops every doc and marker of the store's sessions and starts a fill from the first session. */
  reset(storeId: string, progress: IndexProgress, lease: LeaseHolder): Promise<void>;
  /** How many sessions the index holds. */
  count(storeId: string): Promise<number>;
  /** The marks of these sessions (key: JSON of the SessionKey); absent when not indexed. */
  markers(storeId: string, keys: SessionKey[]): Promise<Map<string, IndexedMark>>;
  /** The text the index holds for the event at `seq` (its place in the session), or null when it holds none. */
  eventBody(storeId: string, key: SessionKey, seq: number): Promise<string | null>;
  /** The indexed sessions after `after` in key order, at most `limit` (for finding the ones the agent deleted). */
  keysAfter(storeId: string, after: SessionKey | null, limit: number): Promise<SessionKey[]>;
  /** One transaction: sessions (re)indexed, sessions removed, and the progress when given. */
  write(
    storeId: string,
    change: { upsert?: IndexedSession[]; remove?: SessionKey[]; progress?: IndexProgress },
    lease: LeaseHolder,
  ): Promise<void>;
  /**
   * Hits whose ids, state values (kinds session, state), titles and labels
   * (meta) or notes contain the text, through the database's text index.
   */
  find(storeId: string, request: { text: string; limit: number; appName?: string; kinds: readonly IndexKind[] }): Promise<FindHit[]>;
  /** Events of the app whose text contains the text, through the database's text index; at most `limit`. */
  findEvents(storeId: string, request: { text: string; limit: number; appName: string }): Promise<EventDoc[]>;
}

export type IndexKind = 'session' | 'state' | 'meta' | 'note';

export function keyText(key: SessionKey): string {
  return JSON.stringify(key);
}

/** How far the index of a store is, as find needs it; null before the follower has read its progress. */
export interface IndexStatus {
  filled: boolean;
  /** The last session filled, in the fill's order (rowid or key): the index holds every session up to it. */
  cursor: FillCursor | null;
  /** Sessions in the index and in the agent's database, as last counted. */
  indexed: number;
  total: number;
}

export interface FollowOptions {
  /** How often the agent's database is asked for changed sessions and its session count (ms). */
  pollMs?: number;
  /** How long one step of the fill works before it yields to requests (ms). */
  stepMs?: number;
  /** How long the lease on following holds without renewal: another server takes over this long after the holder stops (ms). */
  leaseMs?: number;
  /** False: the follower runs only when told to (settle), for tests and the bench. */
  background?: boolean;
}
