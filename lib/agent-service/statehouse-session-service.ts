// adk-js's session service interface on Statehouse's storage: the class an
// ADK TypeScript agent swaps in for InMemorySessionService. Everything here
// is translation; the semantics live in lib/session-service.
import {
  BaseSessionService,
  createEvent,
  type AppendEventRequest,
  type CreateEventParams,
  type CreateSessionRequest,
  type DeleteSessionRequest,
  type Event as AdkEvent,
  type GetSessionRequest,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type Session as AdkSession,
} from '@google/adk';
import { databaseUrl as configuredDatabaseUrl } from '../config';
import { providerOf } from '../db';
import { openServices, type OpenedServices } from '../services';
import { rewindSession } from '../session-service/rewind';
import { idSchema } from '../validation/schemas';
import {
  KEY_PREFIX_TEMP,
  type SessionStore,
  invalidInput,
  sessionNotFound,
  staleSession,
  isSessionServiceError,
  SessionServiceError,
  type ErrorCode,
  type Event,
  type GetSessionConfig,
  type JsonValue,
  type NewEvent,
  type Session,
  type StateRecord,
} from '../session-service';

export interface StatehouseSessionServiceOptions {
  /** `file:<path>` (SQLite) or `postgresql://...`. Default: DATABASE_URL, else `file:./.data/statehouse.db`. */
  databaseUrl?: string;
  /**
   * Apply pending migrations on first use. Default: for SQLite only, as the
   * console does; a PostgreSQL server is migrated deliberately (npm run db:migrate).
   */
  migrate?: boolean;
}

/**
 * The storage revision each adk Session object was loaded at. A WeakMap, not a
 * field: adk-js's Session type has no room for it, and a copy made with
 * `{...session}` or `cloneDeep` must not inherit it (it could not be trusted).
 */
const revisions = new WeakMap<AdkSession, number>();

/** The revision an adk Session object was loaded at; undefined for objects this service did not produce. */
export function revisionOf(session: AdkSession): number | undefined {
  return revisions.get(session);
}

/**
 * ADK's session service for adk-js (`@google/adk`) agents, persisting into a
 * Statehouse database (SQLite or PostgreSQL), so sessions, events and scoped
 * state appear in the console:
 *
 *     const sessionService = new StatehouseSessionService({ databaseUrl });
 *     const runner = new Runner({ appName, agent, sessionService });
 *
 * Units follow adk-js at this boundary (Event.timestamp, Session.lastUpdateTime
 * and GetSessionConfig.afterTimestamp in milliseconds) and the Python reference
 * in storage (float seconds).
 *
 * Semantics follow ADK's Python services (docs/semantics.md); where that
 * differs from adk-js's own InMemorySessionService / DatabaseSessionService,
 * docs/api.md ("Where the adk-js services differ") lists it with the reason.
 * Errors are lib/session-service's SessionServiceError (code + ADK's message);
 * getSession returns undefined when the session is absent, as adk-js does.
 */
export class StatehouseSessionService extends BaseSessionService {
  private readonly databaseUrl: string;
  private readonly migrate: boolean;
  private connection: Promise<OpenedServices> | undefined;

  constructor(options: StatehouseSessionServiceOptions = {}) {
    super();
    this.databaseUrl = options.databaseUrl ?? configuredDatabaseUrl();
    // Fails fast on an unsupported URL; nothing is opened until first use.
    const provider = providerOf(this.databaseUrl);
    this.migrate = options.migrate ?? provider === 'sqlite';
  }

  /** The store, opening (and migrating) the database on first use. */
  private service(): Promise<SessionStore> {
    this.connection ??= openServices(this.databaseUrl, { migrate: this.migrate }).catch((error: unknown) => {
      this.connection = undefined; // let the next call try again
      throw error;
    });
    return this.connection.then((opened) => opened.store);
  }

  /** Closes the database connection; a later call opens it again. */
  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    if (!connection) return;
    const opened = await connection.catch(() => undefined);
    await opened?.close();
  }

  override async createSession({ appName, userId, state, sessionId }: CreateSessionRequest): Promise<AdkSession> {
    checkId('appName', appName);
    checkId('userId', userId);
    if (sessionId !== undefined && sessionId !== '') checkId('sessionId', sessionId);
    const service = await this.service();
    const created = await service
      .createSession({ appName, userId, sessionId, state: state === undefined ? undefined : jsonRecord(state, 'The initial state') })
      .catch(inAdkJsWords({ ALREADY_EXISTS: () => `Session with id ${sessionId ?? ''} already exists.` }));
    return toAdkSession(created);
  }

  override async getSession({ appName, userId, sessionId, config }: GetSessionRequest): Promise<AdkSession | undefined> {
    const service = await this.service();
    const domainConfig: GetSessionConfig = {
      numRecentEvents: config?.numRecentEvents,
      afterTimestamp: config?.afterTimestamp === undefined ? undefined : config.afterTimestamp / 1000,
    };
    const session = await service.getSession({ appName, userId, sessionId }, domainConfig);
    return session ? toAdkSession(session) : undefined;
  }

  /** Like adk-js's, but a concurrent creator of the same id makes this a get, not an error. */
  override async getOrCreateSession(request: CreateSessionRequest): Promise<AdkSession> {
    try {
      return await super.getOrCreateSession(request);
    } catch (error) {
      if (!request.sessionId || !isSessionServiceError(error) || error.code !== 'ALREADY_EXISTS') throw error;
      const existing = await this.getSession({ ...request, sessionId: request.sessionId });
      if (!existing) throw error;
      return existing;
    }
  }

  /** adk-js's paging (limit, offset or page, order) done by the database: one page read, whatever the number of sessions. */
  override async listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    const { limit, offset, page, order } = request;
    nonNegativeInteger(limit, 'limit');
    nonNegativeInteger(offset, 'offset');
    nonNegativeInteger(page, 'page', 1);
    if (order !== undefined && order !== 'asc' && order !== 'desc') throw invalidInput('order must be "asc" or "desc".');
    const start = limit !== undefined && page !== undefined ? (page - 1) * limit : (offset ?? 0);
    const service = await this.service();
    const { sessions, total } = await service.listSessions({
      appName: request.appName,
      userId: request.userId,
      limit,
      offset: start,
      order,
    });
    const adkSessions = sessions.map(toAdkSession);
    if (limit === undefined) {
      return { sessions: adkSessions, page: 1, limit: total, totalItems: total, totalPages: total === 0 ? 0 : 1 };
    }
    return {
      sessions: adkSessions,
      page: page ?? (limit === 0 ? 1 : Math.floor(start / limit) + 1),
      limit,
      totalItems: total,
      totalPages: limit === 0 ? 0 : Math.ceil(total / limit),
    };
  }

  /**
   * adk-python's Runner.rewind_async for adk-js, which has none: appends a
   * `user` event with `actions.rewindBeforeInvocationId` whose delta puts the
   * session-scope keys back as they were before that invocation (app: and
   * user: keys stay). Returns the rewound session; NOT_FOUND for an unknown
   * session or invocation.
   */
  async rewindSession({
    appName,
    userId,
    sessionId,
    rewindBeforeInvocationId,
  }: { rewindBeforeInvocationId: string } & DeleteSessionRequest): Promise<AdkSession> {
    const service = await this.service();
    const ref = { appName, userId, sessionId };
    await rewindSession(service, ref, rewindBeforeInvocationId);
    const session = await service.getSession(ref);
    if (!session) throw sessionNotFound(sessionId);
    return toAdkSession(session);
  }

  override async deleteSession({ appName, userId, sessionId }: DeleteSessionRequest): Promise<void> {
    const service = await this.service();
    await service.deleteSession({ appName, userId, sessionId });
  }

  /**
   * Persists the event (one transaction, guarded by the session's revision),
   * then updates `session` in place as adk-js callers expect: the event pushed
   * (with its temp: keys removed), state updated including temp: keys,
   * lastUpdateTime set to the event's timestamp. Returns the same event object.
   */
  override async appendEvent({ session, event }: AppendEventRequest): Promise<AdkEvent> {
    if (event.partial) return event; // neither stored nor applied
    const store = await this.service();
    const ref = { appName: session.appName, userId: session.userId, sessionId: session.id };
    const notFound = inAdkJsWords({ NOT_FOUND: () => `Session ${session.id} not found for appendEvent` });
    const revision = revisions.get(session) ?? (await revisionByClock(store, session).catch(notFound));
    const { event: stored, revision: newRevision } = await store
      .append(ref, toDomainEvent(event), { expectedRevision: revision })
      .catch(notFound);

    // Stored. Now the in-memory object: adk-js's base appendEvent trims temp:
    // keys from the event in place, applies the rest (honouring its write-order
    // stamps) and pushes the event; temp: keys then go to state, as in Python.
    event.id ||= stored.id;
    if (!event.timestamp) event.timestamp = toMillis(stored.timestamp);
    const temp = tempEntries(event);
    // The base class is given the session with an empty event list: it would
    // look the id up in the whole list, a cost growing with the session (10 ms
    // an append at 10,000 events); eventIndex does that lookup in constant time.
    const view: AdkSession = { ...session, events: [] };
    await super.appendEvent({ session: view, event });
    upsertEvent(session.events, event);
    for (const [key, value] of temp) {
      Object.defineProperty(session.state, key, { value, enumerable: true, writable: true, configurable: true });
    }
    session.lastUpdateTime = event.timestamp;
    // A retried event is answered with the revision that first stored it: this copy may be further on already.
    revisions.set(session, Math.max(revision, newRevision));
    return event;
  }
}

/**
 * The revision to append at for a session object this service did not load
 * (built by hand, or a copy): the stored one, unless the store changed after
 * the object's lastUpdateTime, as adk-python's SqliteSessionService decides.
 */
async function revisionByClock(store: SessionStore, session: AdkSession): Promise<number> {
  const ref = { appName: session.appName, userId: session.userId, sessionId: session.id };
  const stored = await store.getSession(ref, { numRecentEvents: 0 });
  if (!stored) throw sessionNotFound(session.id);
  if (toMillis(stored.lastUpdateTime) > session.lastUpdateTime) throw staleSession();
  return stored.revision;
}

/** A domain error rethrown with adk-js's own services' message for its code (code kept), for callers that match on it. */
function inAdkJsWords(messages: Partial<Record<ErrorCode, () => string>>): (error: unknown) => never {
  return (error: unknown) => {
    const message = isSessionServiceError(error) ? messages[error.code] : undefined;
    throw message ? new SessionServiceError((error as SessionServiceError).code, message()) : error;
  };
}

/**
 * Each event list's ids and positions, as this service last left the list.
 * A list whose length or last event changed since (the caller pushed or
 * removed events) is indexed again; an id found is checked against the list
 * before it is trusted. (An event the caller swapped in place in the middle
 * of the list, keeping its length and last event, goes unnoticed.)
 */
const eventIndexes = new WeakMap<AdkEvent[], { length: number; last: AdkEvent | undefined; ids: Map<string, number> }>();

/** adk-js's appendEvent on the list: the entry with the event's id replaced in place, else the event pushed. */
function upsertEvent(events: AdkEvent[], event: AdkEvent): void {
  let index = eventIndexes.get(events);
  if (index?.length !== events.length || index.last !== events.at(-1)) {
    index = { length: events.length, last: events.at(-1), ids: new Map(events.map((e, i) => [e.id, i])) };
    eventIndexes.set(events, index);
  }
  const at = index.ids.get(event.id) ?? -1;
  const found = at < 0 || events[at]?.id === event.id ? at : events.findIndex((e) => e.id === event.id);
  if (found >= 0) {
    events[found] = event;
    index.ids.set(event.id, found);
  } else {
    index.ids.set(event.id, events.length);
    events.push(event);
  }
  index.length = events.length;
  index.last = events.at(-1);
}

/** Float seconds (storage) to milliseconds (adk-js), keeping microseconds and undoing the division's rounding. */
function toMillis(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e3;
}

function toAdkSession(session: Session): AdkSession {
  const adk: AdkSession = {
    id: session.id,
    appName: session.appName,
    userId: session.userId,
    state: session.state,
    events: session.events.map(toAdkEvent),
    lastUpdateTime: toMillis(session.lastUpdateTime),
  };
  revisions.set(adk, session.revision);
  return adk;
}

function toAdkEvent(event: Event): AdkEvent {
  // Stored events are adk-js/ADK events serialised as JSON (camelCase), so
  // the shapes agree field by field; only the timestamp's unit differs.
  // createEvent adds adk-js's brand and fills its defaults.
  const { author, ...fields } = event;
  // No author is stored as ''; adk-js's createEvent leaves it unset.
  const params = { ...fields, ...(author === '' ? {} : { author }), timestamp: toMillis(event.timestamp) } as unknown as CreateEventParams;
  return createEvent(params);
}

function toDomainEvent(event: AdkEvent): NewEvent {
  const copy = jsonCopy(event, 'The event');
  if (!isRecord(copy)) throw invalidInput('The event must be an object.');
  const timestamp = Number.isFinite(event.timestamp) && event.timestamp > 0 ? event.timestamp / 1000 : undefined;
  return { ...copy, timestamp };
}

function tempEntries(event: AdkEvent): [string, unknown][] {
  const delta: Record<string, unknown> = event.actions?.stateDelta ?? {};
  return Object.keys(delta)
    .filter((key) => key.startsWith(KEY_PREFIX_TEMP))
    .map((key) => [key, delta[key]]);
}

function isRecord(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What storage will hold for a value adk-js types as `unknown`: its JSON form. */
function jsonCopy(value: unknown, what: string): JsonValue {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw invalidInput(`${what} cannot be stored as JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (text === undefined) throw invalidInput(`${what} cannot be stored as JSON.`);
  return JSON.parse(text) as JsonValue;
}

function jsonRecord(value: Record<string, unknown>, what: string): StateRecord {
  const copy = jsonCopy(value, what);
  if (!isRecord(copy)) throw invalidInput(`${what} must be an object.`);
  return copy;
}

/** The ids the HTTP API accepts (lib/validation), so every session an agent creates can be opened in the console. */
function checkId(name: string, id: string): void {
  const result = idSchema.safeParse(id);
  if (!result.success) throw invalidInput(`${name} ${JSON.stringify(id)} ${result.error.issues[0]?.message ?? 'is not valid'}.`);
}

function nonNegativeInteger(value: number | undefined, name: string, min = 0): void {
  if (value !== undefined && (!Number.isInteger(value) || value < min)) {
    throw invalidInput(`${name} must be an integer of at least ${min}.`);
  }
}
