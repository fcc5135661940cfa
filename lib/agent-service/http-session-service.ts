// adk-js's session service over Statehouse's HTTP API, for agents that run on
// another machine than the console: the same contract as the drop-in
// (lib/testing/adk-js-session-contract.ts), with the server's answers as errors.
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
import { STALE_SESSION_MESSAGE, SessionServiceError, type ErrorCode } from '../session-service';
import {
  adkJsMessages,
  applyToSessionObject,
  checkId,
  inAdkJsWords,
  jsonRecord,
  pageRequest,
  pageResponse,
  revisionByClock,
  toAdkSession,
  toMillis,
  toStoredEvent,
  type StoredEventShape,
  type StoredSessionShape,
} from './adk-objects';

export interface HttpSessionServiceOptions {
  /** The Statehouse server, e.g. `https://statehouse.internal` (its API is under `/api`). */
  baseURL: string;
  /** An API token (`sht_...`), sent as a bearer; a protected deployment needs one whose account may write. */
  token?: string;
  /** How often a request that got no answer, or a 502/503/504, is sent again (default 3); appends are retried by event id. */
  retries?: number;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/** The API's most sessions per page. */
const MAX_PAGE = 1000;
const RETRY_STATUSES = new Set([502, 503, 504]);

/** The revision each session object was loaded at (a WeakMap: copies of an object do not inherit it). */
const revisions = new WeakMap<AdkSession, number>();

/**
 * ADK's session service for adk-js agents, over a Statehouse server's API:
 *
 *     const sessionService = new HttpSessionService({ baseURL: process.env.STATEHOUSE_URL, token: process.env.STATEHOUSE_TOKEN });
 *     const runner = new Runner({ appName, agent, sessionService });
 *
 * Errors are SessionServiceErrors with the drop-in's codes: a missing session
 * on append is NOT_FOUND, a stale session object STALE_SESSION with the
 * server's detail, an id in use ALREADY_EXISTS; getSession answers undefined
 * for a missing session, as adk-js does. An append whose answer was lost is
 * sent again with the same event id, which the API stores once.
 */
export class HttpSessionService extends BaseSessionService {
  private readonly base: string;
  private readonly token: string | undefined;
  private readonly retries: number;
  private readonly fetcher: typeof fetch;

  constructor(options: HttpSessionServiceOptions) {
    super();
    this.base = `${options.baseURL.replace(/\/+$/, '')}/api`;
    this.token = options.token;
    this.retries = options.retries ?? 3;
    this.fetcher = options.fetch ?? ((input, init) => fetch(input, init));
  }

  override async createSession({ appName, userId, state, sessionId }: CreateSessionRequest): Promise<AdkSession> {
    checkId('appName', appName);
    checkId('userId', userId);
    if (sessionId !== undefined && sessionId !== '') checkId('sessionId', sessionId);
    const body = { ...(sessionId ? { sessionId } : {}), ...(state === undefined ? {} : { state: jsonRecord(state, 'The initial state') }) };
    const answer = await this.request('POST', sessionsPath(appName, userId), { body, conflict: 'ALREADY_EXISTS' }).catch(
      inAdkJsWords({ ALREADY_EXISTS: () => adkJsMessages.alreadyExists(sessionId ?? '') }),
    );
    return this.loaded(answer);
  }

  override async getSession({ appName, userId, sessionId, config }: GetSessionRequest): Promise<AdkSession | undefined> {
    const query = new URLSearchParams();
    if (config?.numRecentEvents !== undefined) query.set('numRecentEvents', String(config.numRecentEvents));
    if (config?.afterTimestamp !== undefined) query.set('afterTimestamp', String(config.afterTimestamp / 1000));
    const answer = await this.request('GET', sessionPath(appName, userId, sessionId), { query, missing: 'undefined' });
    return answer && this.loaded(answer);
  }

  override async listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    const { limit, start, order } = pageRequest(request);
    const { appName, userId } = request;
    // The API's list with state is per user (ADK's route); every user's sessions of an app come without it.
    if (userId === undefined)
      throw new SessionServiceError('INVALID_INPUT', 'HttpSessionService lists the sessions of one user: give userId.');
    if (limit !== undefined && limit > MAX_PAGE) throw new SessionServiceError('INVALID_INPUT', `limit must be at most ${MAX_PAGE}.`);
    const query = new URLSearchParams();
    // A limit of 0 asks for the total only: the API's smallest page, whose sessions are not wanted.
    if (limit !== undefined) query.set('limit', String(Math.max(limit, 1)));
    if (start > 0) query.set('offset', String(start));
    if (order) query.set('order', order);
    const answer = await this.request('GET', sessionsPath(appName, userId), { query });
    const listed = answer.body as StoredSessionShape[];
    const total = Number(answer.headers.get('x-total-count') ?? listed.length);
    const sessions = limit === 0 ? [] : listed.map(toAdkSession);
    return pageResponse(request, start, sessions, total);
  }

  override async deleteSession({ appName, userId, sessionId }: DeleteSessionRequest): Promise<void> {
    await this.request('DELETE', sessionPath(appName, userId, sessionId));
  }

  /**
   * Sends the event (guarded by the session object's revision) and, once it is
   * stored, updates `session` in place as the drop-in does. The event gets its
   * id before the first attempt, so a retry is the same event.
   */
  override async appendEvent({ session, event }: AppendEventRequest): Promise<AdkEvent> {
    if (event.partial) return event; // neither stored nor applied
    event.id ||= crypto.randomUUID();
    const path = `${sessionPath(session.appName, session.userId, session.id)}/events`;
    const notFound = inAdkJsWords({ NOT_FOUND: () => adkJsMessages.notFoundForAppend(session.id) });
    const revision = revisions.get(session) ?? (await this.revisionByClock(session).catch(notFound));
    const answer = await this.request('POST', path, { body: toStoredEvent(event), ifMatch: revision }).catch(notFound);
    const stored = answer.body as StoredEventShape;
    await applyToSessionObject(session, event, stored, (request) => super.appendEvent(request));
    revisions.set(session, Math.max(revision, revisionOfTag(answer.headers.get('etag')) ?? revision));
    return event;
  }

  /** For a session object this service did not load: the stored revision, if storage has not moved on since the object's clock. */
  private async revisionByClock(session: AdkSession): Promise<number> {
    const query = new URLSearchParams({ numRecentEvents: '0' });
    const answer = await this.request('GET', sessionPath(session.appName, session.userId, session.id), { query, missing: 'undefined' });
    const revision = answer && revisionOfTag(answer.headers.get('etag'));
    const stored =
      answer && revision !== undefined
        ? { revision, lastUpdateTime: toMillis((answer.body as StoredSessionShape).lastUpdateTime) }
        : undefined;
    return revisionByClock(session, stored);
  }

  private loaded(answer: Answer): AdkSession {
    const session = toAdkSession(answer.body as StoredSessionShape);
    const revision = revisionOfTag(answer.headers.get('etag'));
    if (revision !== undefined) revisions.set(session, revision);
    return session;
  }

  private request(method: string, path: string, options: RequestOptions & { missing: 'undefined' }): Promise<Answer | undefined>;
  private request(method: string, path: string, options?: RequestOptions): Promise<Answer>;
  /** One API call, sent again (same body, same If-Match) when no answer came or the server was briefly unavailable. */
  private async request(method: string, path: string, options: RequestOptions = {}): Promise<Answer | undefined> {
    const query = options.query?.toString();
    const url = `${this.base}${path}${query ? `?${query}` : ''}`;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.ifMatch !== undefined) headers['If-Match'] = `"${options.ifMatch}"`;
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetcher(url, { method, headers, body });
      } catch (error) {
        if (attempt < this.retries) {
          await pause(attempt, null);
          continue;
        }
        throw new SessionServiceError('UNAVAILABLE', `Statehouse did not answer ${method} ${url}: ${describe(error)}`);
      }
      if (RETRY_STATUSES.has(response.status) && attempt < this.retries) {
        await response.body?.cancel();
        await pause(attempt, response.headers.get('retry-after'));
        continue;
      }
      const text = await response.text();
      if (response.ok) return { body: text === '' ? null : (JSON.parse(text) as unknown), headers: response.headers };
      if (response.status === 404 && options.missing === 'undefined') return undefined;
      throw errorOf(response.status, detailOf(text), `${method} ${url}`, options.conflict ?? 'CONFLICT');
    }
  }
}

interface RequestOptions {
  query?: URLSearchParams;
  body?: unknown;
  ifMatch?: number;
  /** What a 409 other than a stale append means (default CONFLICT). */
  conflict?: ErrorCode;
  /** What a 404 means: an error (default) or no such thing. */
  missing?: 'error' | 'undefined';
}

interface Answer {
  body: unknown;
  headers: Headers;
}

const segment = encodeURIComponent;
const sessionsPath = (appName: string, userId: string) => `/apps/${segment(appName)}/users/${segment(userId)}/sessions`;
const sessionPath = (appName: string, userId: string, sessionId: string) => `${sessionsPath(appName, userId)}/${segment(sessionId)}`;

function revisionOfTag(tag: string | null): number | undefined {
  const match = tag === null ? null : /^(?:W\/)?"(\d+)"$/.exec(tag.trim());
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function detailOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { detail?: unknown };
    if (typeof parsed.detail === 'string') return parsed.detail;
  } catch {
    // not JSON: the text itself says what happened
  }
  return text.slice(0, 500);
}

const CODES: Partial<Record<number, ErrorCode>> = {
  400: 'INVALID_INPUT',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'INVALID_INPUT',
  503: 'UNAVAILABLE',
};

/** The server's answer as the drop-in's error, keeping the server's words; a status with no domain code (401, 403, 500) as an Error. */
function errorOf(status: number, detail: string, what: string, conflict: ErrorCode): Error {
  let code = CODES[status];
  if (code === 'CONFLICT') code = detail === STALE_SESSION_MESSAGE ? 'STALE_SESSION' : conflict;
  return code ? new SessionServiceError(code, detail) : new Error(`Statehouse answered ${what} with ${status}: ${detail}`);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Waits before attempt n+1: the server's Retry-After when it gave one, else 0.2 s doubling. */
function pause(attempt: number, retryAfter: string | null): Promise<void> {
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  const ms = Number.isFinite(seconds) ? Math.min(seconds, 10) * 1000 : 200 * 2 ** attempt;
  return new Promise((resolve) => setTimeout(resolve, ms));
}
