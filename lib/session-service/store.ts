import type { ValueSpellings } from './value-spelling';
import type {
  AppSummary,
  Event,
  GetSessionConfig,
  JsonValue,
  NewEvent,
  Page,
  PageRequest,
  Scope,
  Session,
  SessionRef,
  SessionSummary,
  SessionTiers,
  StateChange,
  StateRecord,
  StoredEvent,
  UserSummary,
} from './types';
import type { SessionServiceError } from './errors';
import type { RefusableOperation, SessionOperations } from './operations';
import type { EventIndexBuilding, EventSearchRequest, EventSearchResult, FindRequest, FindResult } from './search';
import type { StateFilter } from './state-filter';
import type { ValueReadOptions } from './value-preview';

export type { PageRequest, SessionRef } from './types';

export interface CreateSessionRequest {
  appName: string;
  userId: string;
  /** Generated (a UUID) when absent. */
  sessionId?: string;
  state?: StateRecord;
  /**
   * Appended in order, in the same transaction as the session: the session
   * exists with all of them or not at all. Each is handled as appendEvent
   * handles it (partial events skipped, temp: keys never stored).
   */
  events?: NewEvent[];
  /** `state`'s values as the request's text spelled them (value-spelling.ts). */
  spellings?: ValueSpellings;
  /** Each of `events`' deltas as the request's text spelled it, by the event's index in `events`. */
  eventSpellings?: readonly (ValueSpellings | undefined)[];
}

export interface ListSessionsRequest {
  appName: string;
  /** Without it, every user's sessions of the app. */
  userId?: string;
  /** At most this many sessions (0: none, only the total); every one when absent. */
  limit?: number;
  /** Skips this many first. */
  offset?: number;
  /** By last update, ties by creation: `asc` (the default) or `desc`. */
  order?: 'asc' | 'desc';
}

export interface SessionList {
  /** With merged state and no events. */
  sessions: Session[];
  /** How many sessions the app (or the user) has, whatever the page. */
  total: number;
}

export interface SessionSearch extends PageRequest {
  appName: string;
  /** By last update: `recent` (the default) or `oldest` first; `events`: most events first (stores that cannot: INVALID_INPUT). */
  order?: 'recent' | 'oldest' | 'events';
  userId?: string;
  /** Only sessions with an error event (errorCode or errorMessage set); a store that cannot tell answers UNSUPPORTED. */
  withErrors?: boolean;
  /** Substring of the session id, its title or one of its labels (case-insensitive). */
  idContains?: string;
  /** Sessions whose merged state has this (prefixed) key... */
  stateKey?: string;
  /** ...or, with stateKey, this JSON value under it; alone, any key holding this JSON value. */
  stateValue?: JsonValue;
  /** State filters with operators on any tier and nested paths (state-filter.ts); all must hold. */
  filters?: StateFilter[];
}

export interface UserListRequest extends PageRequest {
  /** Substring of the user id, case-insensitive. */
  idContains?: string;
  /** `recent` (last activity, the default), `sessions` (most first) or `id`. */
  order?: 'recent' | 'sessions' | 'id';
}

export interface EventQuery extends PageRequest {
  /** Only events with a sequence number greater than this. */
  afterSeq?: number;
  newestFirst?: boolean;
  author?: string;
  invocationId?: string;
  /** Only events whose delta touched this (prefixed) key. */
  touchedKey?: string;
  /** Only events whose author, content text, tool call names or error contain this, case-insensitively (eventSearchText). */
  text?: string;
  /** Only events with a tool call or response of this name. */
  tool?: string;
  /** Only events with an error code or message. */
  errors?: boolean;
  /** Only events at or after this time (seconds). */
  from?: number;
  /** Only events at or before this time (seconds). */
  to?: number;
  /** Long values may come as precut previews (value-preview.ts): the page's reads, never the API's. */
  preview?: boolean;
}

export interface KeyHistoryRequest extends PageRequest {
  appName: string;
  scope: Scope;
  /** Required for user and session scope. */
  userId?: string;
  /** Required for session scope. */
  sessionId?: string;
  /** The key within its tier, without prefix. */
  key: string;
}

export interface StateEdit {
  appName: string;
  /** Required for user scope. */
  userId?: string;
  scope: 'app' | 'user';
  /** Unprefixed keys; `undefined` removes the key. */
  changes: Record<string, JsonValue | undefined>;
  /** Who made the edit (an account name); recorded in the history. */
  actor: string;
  reason: string;
  /**
   * What the editor saw for some of the changed keys. Checked in the write's
   * transaction, under its row locks: a key that holds anything else makes
   * the whole edit a CONFLICT (StateConflictError) and nothing is written.
   */
  expected?: Record<string, ExpectedValue>;
  /** The values as the editor's text spelled them, by unprefixed key (value-spelling.ts). */
  spellings?: ValueSpellings;
}

/** A key's value as an editor saw it: absent, or this value. */
export type ExpectedValue = { present: false } | { present: true; value: JsonValue };

/** Whose data clearData removes: a whole app, or one user of it. */
export interface DataScope {
  appName: string;
  /** Only this user's sessions, user state and their history; the app's state stays. */
  userId?: string;
}

export interface AppendOptions {
  /** Who appended the event, as its state changes' history names them (a signed-in account); defaults to the event's author. */
  actor?: string;
  /**
   * The revision the caller saw: the append is refused as stale when the
   * session has moved on. Without it the event goes onto whatever the
   * current revision is.
   */
  expectedRevision?: number;
  /**
   * The delta's values as the request's text spelled them, by prefixed key
   * (value-spelling.ts): the native store stores those texts (a float `2.0`
   * stays `2.0`); ADK stores write as their own ports do (adk-python's
   * json.dumps and adk-rust's serde_json keep a float a float, adk-js and
   * adk-go write `2`).
   */
  spellings?: ValueSpellings;
}

export interface AppendResult {
  /** The event as stored (no temp: keys); a partial event as given, not stored. */
  event: Event;
  /** The session's revision after the append. */
  revision: number;
}

/** What the console says about the store it serves (a banner, hidden write forms). */
export interface StoreInfo {
  /** The store's id among those the composition root opened. */
  id: string;
  /** `native` (Statehouse's own tables), or an ADK family id (`adk-python-sqlite`, ...). */
  family: string;
  /** Who writes it: `Statehouse`, `adk-python SqliteSessionService`, ... */
  label: string;
  version: string;
  /** One line: what was found and how it keeps time. */
  description: string;
  /** Where it is, without a password. */
  location: string;
  /** Present when the store refuses writes, saying why. */
  readOnlyReason?: string;
}

/**
 * Where sessions live: ADK's session service operations, plus what the
 * console reads. Statehouse's own database is one implementation; the
 * stores other ADK implementations write are others. The whole-session
 * operations (fork, import, titles, retention) are optional: see operations.ts.
 */
export interface SessionStore extends Partial<SessionOperations> {
  /**
   * Why this store would refuse a whole-session operation it has (READ_ONLY,
   * or UNSUPPORTED saying why): the console hides the form and says so, and
   * a dry run refuses what the write would. Undefined: it would not.
   */
  refusalOf?(operation: RefusableOperation): SessionServiceError | undefined;
  /** The returned session has the initial events applied as appendEvent applies them, temp: keys included. */
  createSession(request: CreateSessionRequest, options?: Pick<AppendOptions, 'actor'>): Promise<Session>;
  getSession(ref: SessionRef, config?: GetSessionConfig): Promise<Session | null>;
  /** A page of sessions (every one by default) in update-time order, and their total. */
  listSessions(request: ListSessionsRequest): Promise<SessionList>;
  /** Removes the session, its events, title and labels; app and user state stay. A missing session is a no-op. */
  deleteSession(ref: SessionRef): Promise<void>;
  /**
   * Persists one event and its delta by scope (temp: keys removed), in one
   * transaction. A partial event is not stored (NOT_FOUND still applies).
   * STALE_SESSION when `expectedRevision` is given and storage moved on.
   * ADK's in-place form over a session object is `appendEvent` (append.ts).
   */
  append(ref: SessionRef, event: NewEvent, options?: AppendOptions): Promise<AppendResult>;

  listApps(): Promise<AppSummary[]>;
  /** One app's counts, as listApps gives them; null for an app with no sessions and no shared state. */
  getAppSummary(appName: string): Promise<AppSummary | null>;
  listUsers(appName: string, page?: UserListRequest): Promise<Page<UserSummary>>;
  /**
   * A page of sessions with their total: exact for an app's or a user's
   * sessions; a search by id, key or value counts up to 10,000 matches past
   * the page's offset (`totalIsLowerBound` says when there are more).
   */
  searchSessions(search: SessionSearch): Promise<Page<SessionSummary>>;
  /** The header search: users, sessions and apps whose ids, titles, labels or state values contain the text. */
  find(request: FindRequest): Promise<FindResult>;
  /**
   * The app's events whose text contains the request's, through a text
   * index; stores without one leave it out, and one whose index is not whole
   * yet says how far it is (lib/data/event-search.ts scans in both cases).
   */
  searchEvents?(request: EventSearchRequest): Promise<EventSearchResult | EventIndexBuilding>;
  getSessionSummary(ref: SessionRef): Promise<SessionSummary | null>;
  /** How many error events (errorCode or errorMessage set) each of these sessions of the app has (key: `userId\0sessionId`); absent on stores that cannot tell cheaply. */
  errorEventCounts?(appName: string, sessions: { userId: string; sessionId: string }[]): Promise<Map<string, number>>;
  /** The three tiers separately, each key with the change that set it (and its stored spelling, StateEntry.written). Null when the session is absent. */
  getSessionTiers(ref: SessionRef, options?: ValueReadOptions): Promise<SessionTiers | null>;
  getAppState(appName: string): Promise<SessionTiers['app']>;
  getUserState(appName: string, userId: string): Promise<SessionTiers['user']>;
  listEvents(ref: SessionRef, query?: EventQuery): Promise<Page<StoredEvent>>;
  /** Newest first. */
  getKeyHistory(request: KeyHistoryRequest): Promise<Page<StateChange>>;
  /** Newest first: every app- or user-tier change for one user (edits and events). */
  getUserHistory(appName: string, userId: string, page?: PageRequest & { since?: number }): Promise<Page<StateChange>>;
  /**
   * The state changes (every tier) that these events of the session caused,
   * ordered by event, then as written: a page of the timeline's per-key diffs.
   * At most 1000 sequence numbers; NOT_FOUND for an absent session.
   */
  listEventChanges(ref: SessionRef, seqs: number[], options?: ValueReadOptions): Promise<StateChange[]>;
  /** The tiers as they were right after the event with this sequence number. Null when absent. */
  getStateAsOf(ref: SessionRef, seq: number, options?: ValueReadOptions): Promise<SessionTiers | null>;
  /** Support edits of app or user state, recorded with actor and reason. Returns the tier afterwards. */
  editState(edit: StateEdit): Promise<SessionTiers['app']>;
  /**
   * Removes for good, history included: every session, event, state row and
   * state change of the app (or of one user of it: their sessions, user state,
   * and the user- and session-tier history; app-tier history stays, since the
   * app's state does). For test suites' clean-up; an app or user without data is a no-op.
   */
  clearData(scope: DataScope): Promise<void>;
}
