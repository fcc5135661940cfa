// Operations on whole sessions beyond ADK's session service: forks, copies
// in (import), titles and labels, retention. Each is an optional capability
// of a store: Statehouse's own store has them all; a store over a database
// ADK writes has those its data model can express, and `capability` turns
// a missing one into an UNSUPPORTED error (405) rather than a crash.
//
// Rewind (rewind.ts) and export (session-file.ts) need none of these: they
// work on any store through getSession and append. The stores over ADK's own
// tables (lib/stores/adk) implement none yet; titles, labels and fork links
// for them belong in Statehouse's own database (session_meta is keyed by
// app, user and session id, not by a native row, for that reason), which
// needs a store that pairs an ADK store with a native database.
import { notSupported } from './errors';
import type { ValueSpellings } from './value-spelling';
import type { Event, JsonObject, Page, PageRequest, SessionRef, SessionSummary, StateRecord } from './types';

/** Who did it and why: every operation is recorded in the session operations history. */
export interface Audit {
  actor: string;
  reason?: string;
}

export interface ForkLink {
  sessionId: string;
  /** The source's event the fork was taken after. */
  atSeq: number;
}

/** What Statehouse keeps about a session besides ADK's fields. */
export interface SessionMeta {
  title: string | null;
  labels: string[];
  forkedFrom: ForkLink | null;
  /** Sessions forked from this one (same app and user), oldest first. */
  forks: ForkLink[];
}

export interface ForkRequest {
  source: SessionRef;
  /** Events 1..atSeq are copied; the session state is as it stood right after event atSeq. */
  atSeq: number;
  /** Generated (a UUID) when absent. */
  sessionId?: string;
}

/**
 * A session to write as it is: its session-tier state before the first
 * event, and the events as stored (ids, timestamps and unknown fields kept).
 * Each event's session-scope keys are replayed into the session tier with
 * the event as their cause; its app: and user: keys only with
 * applySharedState (those tiers are the app's and the user's, shared with
 * every other session).
 */
export interface SessionCopy {
  appName: string;
  userId: string;
  sessionId: string;
  initialState: StateRecord;
  events: Event[];
  /** By default the last event's time (now, without events). */
  lastUpdateTime?: number;
  /** By default the time of the copy (an import's file has no creation time: its first event's is the closest). */
  createTime?: number;
  /**
   * The events' app: and user: changes are written into the app's and the
   * user's state, in event order, as the agent's appends wrote them. Without
   * it a copy must have none (the import refuses such a copy up front).
   */
  applySharedState?: boolean;
  /** `initialState`'s values as the source's text spelled them (value-spelling.ts). */
  spellings?: ValueSpellings;
  /** Each of `events`' deltas as the source's text spelled it, by the event's index in `events`. */
  eventSpellings?: readonly (ValueSpellings | undefined)[];
  forkedFrom?: ForkLink;
  title?: string | null;
  labels?: string[];
}

/** Sorted, without duplicates: labels are a set. */
export function normalizeLabels(labels: readonly string[]): string[] {
  return [...new Set(labels.map((label) => label.trim()).filter(Boolean))].sort();
}

export interface MetaEdit {
  /** null clears it; undefined leaves it. */
  title?: string | null;
  labels?: string[];
}

export type PruneTarget =
  | { kind: 'session'; ref: SessionRef }
  | { kind: 'invocation'; ref: SessionRef; invocationId: string }
  | { kind: 'eventsBefore'; ref: SessionRef; before: number }
  | { kind: 'idleSessions'; appName: string; userId?: string; idleDays: number; now?: number };

export interface PruneCount {
  sessions: number;
  events: number;
}

/** `mark` and `clear`: a test kit's namespace marked as its own, and cleared (test-namespaces.ts). */
export type OperationKind = 'fork' | 'import' | 'meta' | 'prune' | 'mark' | 'clear';
/** What a store may refuse as a whole: these session operations, and deleting some of a session's events. */
export type RefusableOperation = 'fork' | 'import' | 'meta' | 'prune' | 'pruneEvents';

/** One entry of the session operations history. */
export interface OperationRecord {
  id: number;
  appName: string;
  /** '' for an operation over an app. */
  userId: string;
  /** '' for an operation over an app or a user. */
  sessionId: string;
  kind: OperationKind;
  actor: string;
  reason: string | null;
  detail: JsonObject;
  time: number;
}

export interface OperationQuery extends PageRequest {
  appName: string;
  userId?: string;
  sessionId?: string;
}

export interface SessionOperations {
  /** NOT_FOUND for an absent source; INVALID_INPUT for atSeq outside 1..last; ALREADY_EXISTS for a taken id. */
  forkSession(request: ForkRequest, audit: Audit): Promise<SessionSummary>;
  /** All of them in one transaction, or none: ALREADY_EXISTS when any id is taken. */
  importSessions(copies: SessionCopy[], audit: Audit): Promise<void>;
  /** Null for an absent session. */
  getSessionMeta(ref: SessionRef): Promise<SessionMeta | null>;
  setSessionMeta(ref: SessionRef, edit: MetaEdit, audit: Audit): Promise<SessionMeta>;
  /** With dryRun, what it would delete and nothing else; the counts of a real run are what it deleted. */
  prune(target: PruneTarget, options: Audit & { dryRun: boolean }): Promise<PruneCount>;
  listOperations(query: OperationQuery): Promise<Page<OperationRecord>>;
}

/** The store's implementation of an operation, or NOT_SUPPORTED. */
export function capability<K extends keyof SessionOperations>(store: Partial<SessionOperations>, name: K): SessionOperations[K] {
  const method = store[name];
  if (typeof method !== 'function') throw notSupported(OPERATION_NAMES[name]);
  return method.bind(store) as SessionOperations[K];
}

const OPERATION_NAMES: Record<keyof SessionOperations, string> = {
  forkSession: 'forking sessions',
  importSessions: 'importing sessions',
  getSessionMeta: 'session titles and labels',
  setSessionMeta: 'session titles and labels',
  prune: 'deleting events and sessions',
  listOperations: 'the session operations history',
};
