// adk-js's session service interface on Statehouse's storage: the class an
// ADK TypeScript agent swaps in for InMemorySessionService. Everything here
// is translation; the semantics live in lib/session-service.
import {
  BaseSessionService,
  type AppendEventRequest,
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
import { sessionNotFound, isSessionServiceError, type GetSessionConfig, type Session, type SessionStore } from '../session-service';
import {
  adkJsMessages,
  applyToSessionObject,
  checkId,
  inAdkJsWords,
  jsonRecord,
  pageRequest,
  pageResponse,
  revisionByClock,
  toAdkSession as adkSessionOf,
  toMillis,
  toStoredEvent,
} from './adk-objects';

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
      .catch(inAdkJsWords({ ALREADY_EXISTS: () => adkJsMessages.alreadyExists(sessionId ?? '') }));
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
    const { limit, start, order } = pageRequest(request);
    const service = await this.service();
    const { sessions, total } = await service.listSessions({
      appName: request.appName,
      userId: request.userId,
      limit,
      offset: start,
      order,
    });
    return pageResponse(request, start, sessions.map(toAdkSession), total);
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
    const notFound = inAdkJsWords({ NOT_FOUND: () => adkJsMessages.notFoundForAppend(session.id) });
    const revision =
      revisions.get(session) ??
      (await store
        .getSession(ref, { numRecentEvents: 0 })
        .then((stored) =>
          revisionByClock(session, stored ? { revision: stored.revision, lastUpdateTime: toMillis(stored.lastUpdateTime) } : undefined),
        )
        .catch(notFound));
    const { event: stored, revision: newRevision } = await store
      .append(ref, toStoredEvent(event), { expectedRevision: revision })
      .catch(notFound);
    await applyToSessionObject(session, event, stored, (request) => super.appendEvent(request));
    // A retried event is answered with the revision that first stored it: this copy may be further on already.
    revisions.set(session, Math.max(revision, newRevision));
    return event;
  }
}

/** The adk-js session, remembering the revision it was loaded at. */
function toAdkSession(session: Session): AdkSession {
  const adk = adkSessionOf(session);
  revisions.set(adk, session.revision);
  return adk;
}
