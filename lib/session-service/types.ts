/** Any JSON value, as stored in state and event fields. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Key/value state as an agent sees it: merged tiers, keys prefixed by scope. */
export type StateRecord = Record<string, JsonValue>;

/** One session, by the three names ADK addresses it with. */
export interface SessionRef {
  appName: string;
  userId: string;
  sessionId: string;
}

/** A page of a list: at most `limit` items after skipping `offset`. */
export interface PageRequest {
  limit?: number;
  offset?: number;
}

export interface Part {
  text?: string;
  functionCall?: { id?: string; name: string; args?: JsonObject; [field: string]: unknown };
  functionResponse?: { id?: string; name: string; response?: JsonObject; [field: string]: unknown };
  inlineData?: { mimeType?: string; data?: string; [field: string]: unknown };
  [field: string]: unknown;
}

export interface Content {
  role?: string;
  parts?: Part[];
  [field: string]: unknown;
}

export interface EventActions {
  stateDelta: StateRecord;
  artifactDelta: Record<string, number>;
  transferToAgent?: string;
  escalate?: boolean;
  skipSummarization?: boolean;
  requestedAuthConfigs: Record<string, unknown>;
  requestedToolConfirmations: Record<string, unknown>;
  [field: string]: unknown;
}

/** The fields of an ADK event, in the camelCase shape of ADK's API server. */
export interface EventFields {
  id: string;
  invocationId: string;
  /** '' when the event has none: adk-js types author as optional, and its services store such events. */
  author: string;
  branch?: string;
  /** Float seconds since the epoch. */
  timestamp: number;
  content?: Content;
  partial?: boolean;
  turnComplete?: boolean;
  errorCode?: string;
  errorMessage?: string;
  interrupted?: boolean;
  longRunningToolIds?: string[];
  customMetadata?: Record<string, unknown>;
  usageMetadata?: Record<string, unknown>;
}

/** A stored value Statehouse could not read as its ADK writes it: where it is, its raw text (cut), and why. */
export interface UnreadableNote {
  column: string;
  raw: string;
  reason: string;
}

/** An ADK event. Unknown fields are carried along and stored, never interpreted. */
export interface Event extends EventFields {
  actions: EventActions;
  /** Set on an event read from a row Statehouse could not read whole (an ADK store's): what it found and why. */
  unreadable?: UnreadableNote[];
  [field: string]: unknown;
}

/** What a caller may pass to appendEvent: id, timestamp and the actions' maps are filled in when absent. */
export interface NewEvent extends Partial<EventFields> {
  actions?: Partial<EventActions>;
  [field: string]: unknown;
}

/**
 * ADK's Session, exactly its fields in ADK's order (ADK's pydantic Session
 * forbids extra ones): what the API answers and what a session file holds.
 */
export interface AdkSessionJson {
  id: string;
  appName: string;
  userId: string;
  state: StateRecord;
  /** As stored: camelCase, temp: keys removed, unknown fields kept. */
  events: Event[];
  /** Float seconds since the epoch. */
  lastUpdateTime: number;
}

export interface Session extends AdkSessionJson {
  /** Storage revision this copy was loaded at; appends through an older copy are rejected. */
  revision: number;
  /** In a list of an ADK store's sessions: what of this session's own row could not be read (its state, its times). */
  unreadable?: UnreadableNote[];
}

export interface GetSessionConfig {
  /** undefined = all events, 0 = none, N = the last N. */
  numRecentEvents?: number;
  /** Keep events with timestamp >= afterTimestamp (float seconds); 0 = no filter. */
  afterTimestamp?: number;
}

export type Scope = 'app' | 'user' | 'session';

/** One key of one tier, with where its current value came from. */
export interface StateEntry {
  /** The key as stored in its tier (no prefix). */
  key: string;
  value: JsonValue;
  /**
   * The value as its stored JSON text spells it (compact), only where that
   * differs from JSON.stringify(value): a float written `2.0`, digits past a
   * double's, keys not in JS order. Python reads the text, so templates do.
   */
  written?: string;
  /** Float seconds of the last change. */
  updateTime: number;
  lastChange: ChangeSource | null;
}

/** What caused a change of state, stored with every history row: who, why, when, and the event (if one did). */
export interface ChangeSource {
  actor: string;
  reason: string | null;
  time: number;
  sourceUserId: string | null;
  sourceSessionId: string | null;
  eventId: string | null;
  eventSeq: number | null;
}

export interface StateChange extends ChangeSource {
  id: number;
  appName: string;
  scope: Scope;
  ownerUserId: string;
  ownerSessionId: string;
  key: string;
  /** undefined: the key was absent before. */
  oldValue: JsonValue | undefined;
  /** undefined: the key was removed. */
  newValue: JsonValue | undefined;
}

export interface SessionTiers {
  app: StateEntry[];
  user: StateEntry[];
  session: StateEntry[];
  /** The session's summary, when the store read it in the same statement as the tiers (so a state view is one read). */
  summary?: SessionSummary;
}

export interface AppSummary {
  appName: string;
  sessionCount: number;
  userCount: number;
  /** Float seconds; null for an app that only has app state. */
  lastUpdateTime: number | null;
}

export interface UserSummary {
  userId: string;
  sessionCount: number;
  /** null when none of the user's sessions has an update time that can be read (an ADK store's broken rows). */
  lastUpdateTime: number | null;
}

export interface SessionSummary {
  id: string;
  appName: string;
  userId: string;
  createTime: number;
  lastUpdateTime: number;
  eventCount: number;
  revision: number;
  /** Statehouse's own fields, when set (operations.ts): absent from ADK's shapes. */
  title?: string | null;
  labels?: string[];
  /** On an ADK store: what of the session's row could not be read (a time then reads 0). */
  unreadable?: UnreadableNote[];
}

export interface Page<T> {
  items: T[];
  total: number;
  /**
   * Set by searchSessions: true when a search (by id, key or value) matches
   * more sessions than it counts (10,000 past the page's offset); there are
   * then at least `total`. An app's or a user's sessions are always counted.
   */
  totalIsLowerBound?: boolean;
}

export interface StoredEvent {
  seq: number;
  event: Event;
}
