// adk-js's session service over Statehouse's HTTP API (the ADK-compatible
// routes): an agent process writes its sessions into a Statehouse it reaches
// by URL and token, on any machine, instead of opening the database itself.
import {
  BaseSessionService,
  createEvent,
  type AppendEventRequest,
  type CreateSessionRequest,
  type DeleteSessionRequest,
  type Event,
  type GetSessionRequest,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type Session,
} from '@google/adk';
import { z } from 'zod';

export interface HttpSessionServiceOptions {
  /** Default STATEHOUSE_URL. */
  baseURL?: string;
  /** Default STATEHOUSE_TOKEN (none for a console in local mode). */
  token?: string;
}

const sessionJson = z.object({
  id: z.string(),
  appName: z.string(),
  userId: z.string(),
  state: z.record(z.string(), z.unknown()),
  events: z.array(z.looseObject({ id: z.string(), author: z.string(), timestamp: z.number() })),
  lastUpdateTime: z.number(),
});
type SessionJson = z.infer<typeof sessionJson>;

/** adk-js counts milliseconds; Statehouse, like ADK's Python services, float seconds. */
const toMillis = (seconds: number) => Math.round(seconds * 1000);

function toAdkSession(json: SessionJson): Session {
  return {
    id: json.id,
    appName: json.appName,
    userId: json.userId,
    state: json.state,
    events: json.events.map((event) => createEvent({ ...event, timestamp: toMillis(event.timestamp) })),
    lastUpdateTime: toMillis(json.lastUpdateTime),
  };
}

export class HttpSessionService extends BaseSessionService {
  private readonly baseURL: string;
  private readonly token: string | undefined;

  constructor(options: HttpSessionServiceOptions = {}) {
    super();
    const baseURL = options.baseURL ?? process.env.STATEHOUSE_URL;
    if (!baseURL) throw new Error('HttpSessionService needs the Statehouse URL (STATEHOUSE_URL).');
    this.baseURL = baseURL.replace(/\/+$/, '');
    this.token = options.token ?? (process.env.STATEHOUSE_TOKEN || undefined);
  }

  private async call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const response = await fetch(`${this.baseURL}${path}`, {
      method,
      headers: this.token ? { authorization: `Bearer ${this.token}` } : {},
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const json: unknown = text ? JSON.parse(text) : null;
    if (!response.ok && response.status !== 404) {
      const detail = (json as { detail?: unknown } | null)?.detail;
      throw new Error(`Statehouse answered ${response.status} to ${method} ${path}: ${typeof detail === 'string' ? detail : text}`);
    }
    return { status: response.status, json };
  }

  private sessionsPath(appName: string, userId: string): string {
    return `/api/apps/${encodeURIComponent(appName)}/users/${encodeURIComponent(userId)}/sessions`;
  }

  override async createSession({ appName, userId, state, sessionId }: CreateSessionRequest): Promise<Session> {
    const { json } = await this.call('POST', this.sessionsPath(appName, userId), {
      ...(sessionId ? { sessionId } : {}),
      state: state ?? {},
    });
    return toAdkSession(sessionJson.parse(json));
  }

  override async getSession({ appName, userId, sessionId, config }: GetSessionRequest): Promise<Session | undefined> {
    const { status, json } = await this.call('GET', `${this.sessionsPath(appName, userId)}/${encodeURIComponent(sessionId)}`);
    if (status === 404) return undefined;
    const session = toAdkSession(sessionJson.parse(json));
    if (config?.afterTimestamp !== undefined) session.events = session.events.filter((e) => e.timestamp >= (config.afterTimestamp ?? 0));
    if (config?.numRecentEvents !== undefined)
      session.events = config.numRecentEvents === 0 ? [] : session.events.slice(-config.numRecentEvents);
    return session;
  }

  override async listSessions({ appName, userId }: ListSessionsRequest): Promise<ListSessionsResponse> {
    if (!userId) throw new Error('HttpSessionService lists one user’s sessions (ADK’s route needs the user).');
    const { json } = await this.call('GET', this.sessionsPath(appName, userId));
    const sessions = z.array(sessionJson).parse(json).map(toAdkSession);
    return { sessions, page: 1, limit: sessions.length, totalItems: sessions.length, totalPages: sessions.length > 0 ? 1 : 0 };
  }

  override async deleteSession({ appName, userId, sessionId }: DeleteSessionRequest): Promise<void> {
    await this.call('DELETE', `${this.sessionsPath(appName, userId)}/${encodeURIComponent(sessionId)}`);
  }

  /** Stores the event (Statehouse drops its temp: keys), then applies it to the caller's session as adk-js does. */
  override async appendEvent({ session, event }: AppendEventRequest): Promise<Event> {
    if (event.partial) return event;
    const body = { ...(JSON.parse(JSON.stringify(event)) as Record<string, unknown>), timestamp: event.timestamp / 1000 };
    await this.call('POST', `${this.sessionsPath(session.appName, session.userId)}/${encodeURIComponent(session.id)}/events`, body);
    const appended = await super.appendEvent({ session, event });
    session.lastUpdateTime = event.timestamp;
    return appended;
  }
}
