// What one ADK implementation's session store is, as hooks on the shared
// base (base/store.ts). A family knows its DDL (detect), its table layout,
// how it encodes timestamps, state blobs and events, how its delta merges
// into a tier, and how that ADK writes an append or a tier edit. Everything
// else (lists, search, paging, tiers, timeline, per-key deltas, time
// travel, audit) is the base's. See README.md.
import type { AgentQuery, Param, Row } from './agent-db';
import type { SchemaInfo } from './schema';
import type { SpelledJson } from '../../session-service/json-spelling';
import type { ScopedDelta } from '../../session-service/scope';
import type { ValueSpellings } from '../../session-service/value-spelling';
import type { SessionRef } from '../../session-service/store';
import type { Event, StateRecord } from '../../session-service/types';

/** What `detect` found when the schema is this family's. */
export interface FamilyMatch {
  /** The schema version as the family names it (`1`, `sqlite`, `v0`, ...). */
  version: string;
  /** One line for the console and `npm run open`: what it is and how it stores time. */
  description: string;
  /** Why it opens read-only; absent when Statehouse writes it the ADK way. */
  readOnlyReason?: string;
  /** This family's schema, but not one Statehouse can read (v0 pickles): the whole message. */
  cannotRead?: string;
}

/** Table and column names; identifiers are quoted by the base. */
export interface AdkLayout {
  sessions: { table: string; appName: string; userId: string; id: string; state: string; createTime: string; updateTime: string };
  events: {
    table: string;
    id: string;
    appName: string;
    userId: string;
    sessionId: string;
    /** The column ADK orders a session's events by. */
    timestamp: string;
    /** Every column decodeEvent reads (selected as is). */
    columns: string[];
    /** A column holding the event's JSON as text, searched by substring to narrow key histories. */
    searchText?: string;
  };
  appStates: { table: string; appName: string; state: string; updateTime: string };
  userStates: { table: string; appName: string; userId: string; state: string; updateTime: string };
}

export type TimeColumn = 'sessionCreate' | 'sessionUpdate' | 'event' | 'tierUpdate';

export interface TimeCodec {
  /** Float seconds since the epoch from a stored value (a driver value: number or text). */
  decode(raw: unknown, column: TimeColumn): number;
  /** The value that ADK would store for these seconds in this column. */
  encode(seconds: number, column: TimeColumn): Param;
}

/** The current rows a write reads (inside its transaction) before the family writes. */
export interface WriteContext {
  ref: SessionRef;
  /** Tier blobs as stored now (empty when there is no row). */
  app: StateRecord;
  user: StateRecord;
  session: StateRecord;
  hasAppRow: boolean;
  hasUserRow: boolean;
  /** Seconds for update_time columns, as ADK takes them (the event's timestamp for an append). */
  now: number;
  /**
   * Each tier's values as their JSON text spells them (the stored blob's,
   * then the request's), where that text says more than the parsed value: a
   * float written `2.0`. Absent when nothing does. A family whose own
   * encoder keeps a float a float (adk-python's json.dumps, adk-rust's serde_json) writes them so.
   */
  written?: TierWritten;
}

export type TierWritten = Partial<Record<'app' | 'user' | 'session', SpelledJson>>;

export interface AppendWrite extends WriteContext {
  /** The event as stored: complete, temp: keys removed. */
  event: Event;
  /** Its delta by tier, unprefixed, no temp: keys. */
  delta: ScopedDelta;
  /** The event's delta as the request's text spelled it, by prefixed key (as WriteContext.written). */
  deltaSpellings?: ValueSpellings;
}

export interface TierWrite extends Omit<WriteContext, 'ref' | 'session'> {
  appName: string;
  /** For a user-tier edit. */
  userId?: string;
  scope: 'app' | 'user';
  /** The tier as it is to be stored. */
  next: StateRecord;
  /** Keys the editor set, to be written even when only their spelling changes (`9.0` to `9`). */
  edited?: readonly string[];
}

export interface CreateWrite extends WriteContext {
  /** The initial state by tier (no temp: keys). */
  delta: ScopedDelta;
}

/** A row an append may lock: the session's, or its app's or user's tier row. */
export type LockedRow = 'session' | 'app' | 'user';

/** How this ADK writes; a family without it opens read-only. */
export interface FamilyWrites {
  /**
   * The rows this ADK's own append locks for this delta (on PostgreSQL: by
   * `SELECT ... FOR UPDATE` or by writing them), in the order it takes those
   * locks. Statehouse locks the same rows in the same order before it writes,
   * so a console write and the agent's append wait for each other, never in
   * a cycle (a deadlock, which PostgreSQL breaks by failing one of them).
   */
  lockedRows(delta: ScopedDelta): LockedRow[];
  /** The event row, the tiers its delta touches, and the session's update_time: ADK's append_event. */
  append(q: AgentQuery, write: AppendWrite): Promise<void>;
  /** One tier's row (state blob and update_time), as ADK's append writes that tier. */
  editTier(q: AgentQuery, write: TierWrite): Promise<void>;
  /** ADK's create_session; absent when Statehouse does not create sessions in this store. */
  createSession?(q: AgentQuery, write: CreateWrite): Promise<void>;
  /**
   * The event's row alone, encoded as this ADK's append inserts it; no tier
   * and no session row is touched. With createSession it lets a fork or an
   * import write a whole session the ADK way (lib/stores/adk/base/fork.ts);
   * a family without it cannot take forks or imports.
   */
  insertEvent?(q: AgentQuery, ref: SessionRef, event: Event, deltaSpellings?: ValueSpellings): Promise<void>;
}

/** The codec of one opened database of the family. */
export interface FamilyCodec {
  layout: AdkLayout;
  time: TimeCodec;
  decodeState(raw: unknown): StateRecord;
  /** A row with layout.events.columns to the camelCase Event Statehouse shows. */
  decodeEvent(row: Row): Event;
  /**
   * An event row's state delta as its stored JSON text spells it (a float
   * `2.0`), for time travel's template previews; null when the row spells
   * nothing apart. Absent on families whose own encoder writes `2` anyway.
   */
  deltaSpelling?(row: Row): SpelledJson | null;
  /** A tier after a delta, by this ADK's merge rule (dict union, or SQLite json_patch for older SqliteSessionService). */
  applyDelta(tier: StateRecord, delta: StateRecord): StateRecord;
  /**
   * True when an append through a copy loaded at `loaded` (the session's
   * update time then, in µs) must be refused now that storage holds `stored`:
   * ADK's own stale rule for this implementation.
   */
  isStale(stored: number, loaded: number): boolean;
  writes?: FamilyWrites;
  /** How this database's timestamps were found to be kept, for the store's description (a learnt clock). */
  clockDescription?: string;
  /**
   * The SQL a session row's update_time is read through, given the quoted update_time and create_time columns:
   * for a value this family knows to be on the create-time clock (adk-python on MySQL: a session no append has touched).
   */
  sessionUpdateRead?(update: string, create: string): string;
  /** Which merge rule writes and replays use, when the family has more than one (adk-python SqliteSessionService). */
  mergeDescription?: string;
  /** Why this database opens read-only after all (found in its rows, e.g. a migration revision Statehouse does not know). */
  readOnlyReason?: string;
}

/** adk-python SqliteSessionService's two merge rules (python-sqlite/merge.ts). */
export type StateMergeRule = 'update' | 'json_patch';

/** What the operator said about the store (options of its location). */
export interface FamilyOpenOptions {
  /** The IANA zone an agent wrote naive local times in, when the rows cannot tell (`?zone=Europe/Berlin`). */
  zone?: string;
  /** SqliteSessionService's merge rule, when the file cannot tell which release wrote it (`?merge=json_patch`). */
  stateMerge?: StateMergeRule;
}

export interface AdkFamily {
  /** Stable id: `adk-python-sqlite`, `adk-python-db`, `adk-js-db`, `adk-rust`. */
  id: string;
  /** Who writes it: `adk-python SqliteSessionService`. */
  label: string;
  /** null when the schema is not this family's. */
  detect(schema: SchemaInfo): FamilyMatch | null;
  /** Builds the codec (may sample rows, e.g. to learn a timestamp convention). */
  open(q: AgentQuery, schema: SchemaInfo, match: FamilyMatch, options: FamilyOpenOptions): Promise<FamilyCodec>;
}
