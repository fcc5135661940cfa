// Statehouse over HTTP, as a test suite in another repository reaches it:
// STATEHOUSE_URL (and STATEHOUSE_TOKEN for a protected deployment). Nothing
// here opens the database; every call is a documented /api route.
import type { z } from 'zod';
import {
  appListSchema,
  clearCountSchema,
  namespaceListSchema,
  userListSchema,
  type ClearCount,
  type NamespaceMark,
  type TestRun,
  sessionSchema,
  stateEntriesSchema,
  type NewEvent,
  type SessionJson,
  type SessionRef,
  type StateRecord,
  type JsonValue,
} from './types.js';

export interface ClientOptions {
  /** The console's base URL, e.g. http://127.0.0.1:3000. Default: STATEHOUSE_URL. */
  baseURL?: string;
  /** An API token (`npm run accounts -- token create <name>`). Default: STATEHOUSE_TOKEN; none in local mode. */
  token?: string;
}

/** A request Statehouse answered with an error status, with its `detail`. */
export class StatehouseError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly request: string,
  ) {
    super(`Statehouse answered ${status} to ${request}: ${detail}`);
    this.name = 'StatehouseError';
  }
}

const segment = encodeURIComponent;

export function appPath(appName: string): string {
  return `/api/apps/${segment(appName)}`;
}
export function userPath(appName: string, userId: string): string {
  return `${appPath(appName)}/users/${segment(userId)}`;
}
export function sessionPath(ref: SessionRef): string {
  return `${userPath(ref.appName, ref.userId)}/sessions/${segment(ref.sessionId)}`;
}

/** A state edit as an audited change: who (the actor, e.g. the test) and why. */
export interface StateEdit {
  set?: Record<string, JsonValue>;
  remove?: string[];
  reason: string;
  actor: string;
  /** Compare-and-set: the edit is made only if these keys hold these values (else a 409 StatehouseError). */
  expect?: Record<string, JsonValue>;
  /** Compare-and-set: keys that must be absent. */
  expectAbsent?: string[];
}

export function resolveBaseURL(explicit?: string): string {
  const url = explicit ?? process.env.STATEHOUSE_URL;
  if (!url) {
    throw new Error(
      'Statehouse: no server to talk to. Set STATEHOUSE_URL (and STATEHOUSE_TOKEN for a protected deployment), ' +
        "or start one with statehouseWebServer() from 'statehouse/playwright' in playwright.config.ts.",
    );
  }
  return url.replace(/\/+$/, '');
}

export class StatehouseClient {
  readonly baseURL: string;
  private readonly token: string | undefined;

  constructor(options: ClientOptions = {}) {
    this.baseURL = resolveBaseURL(options.baseURL);
    this.token = options.token ?? (process.env.STATEHOUSE_TOKEN || undefined);
  }

  /** The headers a browser page needs to read the API of a protected deployment (`page.setExtraHTTPHeaders`). */
  authHeaders(): Record<string, string> {
    return this.token ? { authorization: `Bearer ${this.token}` } : {};
  }

  private async call<T>(method: string, path: string, schema: z.ZodType<T> | null, body?: unknown): Promise<T> {
    const label = `${method} ${path}`;
    let response: Response;
    try {
      response = await fetch(`${this.baseURL}${path}`, {
        method,
        headers: { ...this.authHeaders(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new Error(`Statehouse at ${this.baseURL} is unreachable (${label}): ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON: reported below with the status
    }
    if (!response.ok) {
      const detail = (json as { detail?: unknown } | null)?.detail;
      throw new StatehouseError(response.status, typeof detail === 'string' ? detail : text.slice(0, 500), label);
    }
    if (!schema) return undefined as T;
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new Error(`Statehouse answered ${label} with an unexpected body: ${parsed.error.message}`);
    return parsed.data;
  }

  listApps(): Promise<string[]> {
    return this.call('GET', '/api/list-apps', appListSchema);
  }

  createSession(
    ref: Omit<SessionRef, 'sessionId'> & { sessionId?: string },
    state?: StateRecord,
    events?: NewEvent[],
  ): Promise<SessionJson> {
    const body = { ...(ref.sessionId ? { sessionId: ref.sessionId } : {}), ...(state ? { state } : {}), ...(events ? { events } : {}) };
    return this.call('POST', `${userPath(ref.appName, ref.userId)}/sessions`, sessionSchema, body);
  }

  /** The session with every event, or null when there is none. */
  async getSession(ref: SessionRef): Promise<SessionJson | null> {
    try {
      return await this.call('GET', sessionPath(ref), sessionSchema);
    } catch (error) {
      if (error instanceof StatehouseError && error.status === 404) return null;
      throw error;
    }
  }

  listSessions(appName: string, userId: string): Promise<SessionJson[]> {
    return this.call('GET', `${userPath(appName, userId)}/sessions`, sessionSchema.array());
  }

  appendEvent(ref: SessionRef, event: NewEvent): Promise<unknown> {
    return this.call('POST', `${sessionPath(ref)}/events`, null, event);
  }

  deleteSession(ref: SessionRef): Promise<void> {
    return this.call('DELETE', sessionPath(ref), null);
  }

  async appState(appName: string): Promise<Record<string, JsonValue>> {
    return entriesRecord(await this.call('GET', `${appPath(appName)}/state`, stateEntriesSchema));
  }

  async userState(appName: string, userId: string): Promise<Record<string, JsonValue>> {
    return entriesRecord(await this.call('GET', `${userPath(appName, userId)}/state`, stateEntriesSchema));
  }

  async editAppState(appName: string, edit: StateEdit): Promise<void> {
    await this.call('PATCH', `${appPath(appName)}/state`, stateEntriesSchema, edit);
  }

  async editUserState(appName: string, userId: string, edit: StateEdit): Promise<void> {
    await this.call('PATCH', `${userPath(appName, userId)}/state`, stateEntriesSchema, edit);
  }

  /**
   * Removes an app the kit marked as its own (`markNamespace`): its sessions,
   * events, state and history, for good; the clear is recorded in the
   * operations log with `actor` and `reason`. A dry run only counts (admin).
   */
  clearApp(appName: string, options: ClearOptions): Promise<ClearCount> {
    return this.call('DELETE', `${appPath(appName)}?${clearQuery(options)}`, clearCountSchema);
  }

  /** Removes one user of a user namespace the kit marked (sessions, user state, their history); app state stays (admin). */
  clearUser(appName: string, userId: string, options: ClearOptions): Promise<ClearCount> {
    return this.call('DELETE', `${userPath(appName, userId)}?${clearQuery(options)}`, clearCountSchema);
  }

  /** Marks an app (or, with `userSuffix`, the users of an app whose ids end with it) as the kit's own: only marked data can be cleared. */
  markNamespace(namespace: { appName: string; userSuffix?: string }, run: TestRun, actor: string): Promise<void> {
    return this.call('POST', '/api/test-namespaces', null, { ...namespace, run, actor });
  }

  /** Every namespace marked by a kit and not cleared yet, with the run that made it. */
  async listNamespaces(): Promise<NamespaceMark[]> {
    return (await this.call('GET', '/api/test-namespaces', namespaceListSchema)).items;
  }

  /** Ids of an app's users containing `q` (with sessions or user state), up to 1,000. */
  async userIds(appName: string, q: string): Promise<string[]> {
    const query = new URLSearchParams({ q, limit: '1000' });
    return (await this.call('GET', `${appPath(appName)}/users?${query.toString()}`, userListSchema)).items.map((user) => user.userId);
  }

  /** Drops a user namespace's mark once its users are cleared. */
  releaseNamespace(namespace: { appName: string; userSuffix: string }): Promise<void> {
    const query = new URLSearchParams({ appName: namespace.appName, userSuffix: namespace.userSuffix });
    return this.call('DELETE', `/api/test-namespaces?${query.toString()}`, null);
  }
}

/** Why and by whom data is cleared (both recorded in the operations log); a dry run only counts. */
export interface ClearOptions {
  reason: string;
  actor: string;
  dryRun?: boolean;
}

function clearQuery(options: ClearOptions): string {
  return new URLSearchParams({ reason: options.reason, actor: options.actor, dryRun: String(options.dryRun ?? false) }).toString();
}

function entriesRecord(body: z.infer<typeof stateEntriesSchema>): Record<string, JsonValue> {
  const record: Record<string, JsonValue> = {};
  for (const entry of body.entries)
    Object.defineProperty(record, entry.key, { value: entry.value, enumerable: true, writable: true, configurable: true });
  return record;
}
