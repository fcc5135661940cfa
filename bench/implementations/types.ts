// The one interface every benchmarked implementation is driven through.
// Session objects stay inside the implementation (as an agent runner keeps
// the session it loaded): workloads name sessions by key only.
import type { JsonValue } from '../../lib/session-service';

export type ImplName =
  'statehouse' | 'statehouse-adk' | 'statehouse-api' | 'statehouse-reference' | 'raw' | 'simple' | 'adk-db' | 'adk-memory';
/** Every implementation, in the order the report's columns show them. */
export const IMPL_NAMES: readonly ImplName[] = [
  'statehouse',
  'statehouse-adk',
  'statehouse-api',
  'statehouse-reference',
  'raw',
  'simple',
  'adk-db',
  'adk-memory',
];
export type ProviderName = 'sqlite' | 'postgresql' | 'memory';

/** A database the run compares on; ADK's in-memory service runs in each group as a reference. */
export type Group = Exclude<ProviderName, 'memory'>;

export const IMPL_LABELS: Record<ImplName, string> = {
  statehouse: 'Statehouse (domain store)',
  'statehouse-adk': 'Statehouse through lib/agent-service (StatehouseSessionService)',
  'statehouse-api': 'Statehouse through /api (next start, HTTP)',
  'statehouse-reference': 'reference door (plain node:http, same store code)',
  simple: 'simple floor (one JSON row per tier)',
  raw: 'raw driver (floor)',
  'adk-db': 'ADK DatabaseSessionService',
  'adk-memory': 'ADK InMemorySessionService',
};

export type Delta = Record<string, JsonValue>;

export interface SessionKey {
  appName: string;
  userId: string;
  sessionId: string;
}

/** What a workload appends; each implementation builds its own event from it. */
export interface BenchEvent {
  author: string;
  invocationId: string;
  text: string;
  stateDelta: Delta;
}

export interface ReadResult {
  eventCount: number;
  state: Record<string, unknown>;
}

export interface SeedSession {
  userId: string;
  sessionId: string;
  state: Delta;
}

export interface BenchTarget {
  readonly impl: ImplName;
  readonly provider: ProviderName;
  /** Creates a session and keeps the returned object for later appends. */
  create(key: SessionKey, state: Delta): Promise<void>;
  /** Appends through the session object this target holds (from create or load). */
  append(key: SessionKey, event: BenchEvent): Promise<void>;
  /** getSession; numRecentEvents undefined = every event. */
  get(key: SessionKey, numRecentEvents?: number): Promise<ReadResult | null>;
  /** listSessions: how many sessions came back. */
  list(appName: string, userId?: string): Promise<number>;
  /**
   * One page of an app's sessions, most recently updated first, with the
   * app's total (what the dashboard's app page shows). Absent where the
   * implementation has no paging (ADK's services list everything).
   */
  listPage?(appName: string, limit: number): Promise<{ items: number; total: number }>;
  /**
   * adk-js's listSessions({appName, userId, limit, order: 'desc'}): the first
   * page of an app's (or a user's) sessions, newest first, each with its
   * merged state, and their total.
   */
  sessionPage?(appName: string, userId: string | undefined, limit: number): Promise<{ items: number; total: number }>;
  /** Statehouse only: the first page of a search by session id, with its (bounded) total. */
  searchPage?(appName: string, limit: number, idContains: string): Promise<{ items: number; total: number }>;
  /** Statehouse only: a session's three tiers, each key with its latest change (the state panel's read); how many keys. */
  stateTiers?(key: SessionKey): Promise<number>;
  /** Gathers planner statistics (ANALYZE), where the target can. */
  gatherStatistics?(): Promise<void>;
  /** Statehouse only: the first page of an app's users by last activity, with their total. */
  usersPage?(appName: string, limit: number): Promise<{ items: number; total: number }>;
  /**
   * Fixture loading, not measured: writes sessions / events straight into the
   * implementation's own storage format (the real create/append path is too
   * slow for 10,000 rows on some implementations). Afterwards the target
   * reloads its session objects from storage.
   */
  seedSessions(appName: string, sessions: SeedSession[]): Promise<void>;
  seedEvents(key: SessionKey, events: BenchEvent[]): Promise<void>;
  /** Loads and holds the session object later appends go through (numRecentEvents: 1; outside timings). */
  load(key: SessionKey): Promise<void>;
  /** Drops the session object held for a key (frees memory). */
  forget(key: SessionKey): void;
  close(): Promise<void>;
}

export function keyString(key: SessionKey): string {
  return `${key.appName}\u0000${key.userId}\u0000${key.sessionId}`;
}
