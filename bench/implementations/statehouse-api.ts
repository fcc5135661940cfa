// Statehouse through the door an agent on another process uses: /api over
// HTTP, served by `next start` (a production build, local mode on
// 127.0.0.1) on this implementation's scratch database, with keep-alive
// connections as fetch keeps them. Appends carry If-Match with the revision
// the last write returned, as an agent guarding its session copy would.
import { randomBytes } from 'node:crypto';
import { ensureBuild, ProductionServer } from '../../scripts/loadtest/server';
import { RawPostgresTarget } from './raw-postgres';
import { RawSqliteTarget } from './raw-sqlite';
import { newEventOf } from './raw-common';
import { keyString, type BenchEvent, type BenchTarget, type Delta, type ReadResult, type SeedSession, type SessionKey } from './types';

export interface ApiServerOptions {
  distDir: string;
  port: number;
  log(message: string): void;
}

const path = (key: SessionKey) =>
  `/api/apps/${encodeURIComponent(key.appName)}/users/${encodeURIComponent(key.userId)}/sessions/${encodeURIComponent(key.sessionId)}`;

export class StatehouseApiTarget implements BenchTarget {
  readonly impl = 'statehouse-api';
  /** The revision each held session was last written at; null: loaded, append unguarded once. */
  private readonly revisions = new Map<string, number | null>();

  private constructor(
    readonly provider: 'sqlite' | 'postgresql',
    private readonly url: string,
    private readonly server: ProductionServer,
    private readonly auth: Record<string, string>,
  ) {}

  static async open(provider: 'sqlite' | 'postgresql', url: string, options: ApiServerOptions): Promise<StatehouseApiTarget> {
    // SQLite: local mode, as the console runs by default. PostgreSQL is always
    // protected: an admin's API token (app: keys in a delta need the admin role).
    let token = '';
    if (provider === 'postgresql') {
      const { openServices } = await import('../../lib/services');
      const opened = await openServices(url, { migrate: true });
      try {
        await opened.accounts.createAccount({ name: 'bench', password: randomBytes(18).toString('base64url'), role: 'admin' });
        token = (await opened.accounts.createToken('bench', 'bench')).secret;
      } finally {
        await opened.close();
      }
    }
    ensureBuild(options.distDir, options.log);
    const server = new ProductionServer({
      databaseUrl: url,
      distDir: options.distDir,
      port: options.port,
      token,
      env: { STATEHOUSE_AUTH: token ? 'protected' : 'local' },
    });
    options.log(`api: next start on ${server.baseUrl} (${options.distDir}, ${token ? 'protected, API token' : 'local'})`);
    // A server that never answered is stopped here: nothing else holds it.
    await server.start().catch(async (error: unknown) => {
      await server.stop();
      throw error;
    });
    return new StatehouseApiTarget(provider, url, server, token ? { authorization: `Bearer ${token}` } : {});
  }

  private async send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const response = await fetch(`${this.server.baseUrl}${path}`, {
      method,
      headers: { ...this.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok && response.status !== 404) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response;
  }

  async create(key: SessionKey, state: Delta): Promise<void> {
    await (await this.send('POST', path(key), state)).json();
    this.revisions.set(keyString(key), 0);
  }

  async append(key: SessionKey, event: BenchEvent): Promise<void> {
    const k = keyString(key);
    const revision = this.revisions.get(k);
    if (revision === undefined) throw new Error(`No loaded session ${key.sessionId}`);
    const body = newEventOf(event);
    const response = await this.send('POST', `${path(key)}/events`, body, revision === null ? {} : { 'if-match': `"${revision}"` });
    await response.json();
    const tag = /"(\d+)"/.exec(response.headers.get('etag') ?? '');
    this.revisions.set(k, tag ? Number(tag[1]) : null);
  }

  async get(key: SessionKey, numRecentEvents?: number): Promise<ReadResult | null> {
    const query = numRecentEvents === undefined ? '' : `?numRecentEvents=${numRecentEvents}`;
    const response = await this.send('GET', `${path(key)}${query}`);
    if (response.status === 404) {
      await response.text();
      return null;
    }
    const session = (await response.json()) as { events: unknown[]; state: Record<string, unknown> };
    return { eventCount: session.events.length, state: session.state };
  }

  async load(key: SessionKey): Promise<void> {
    if (!(await this.get(key, 1))) throw new Error(`Session ${key.sessionId} not found.`);
    this.revisions.set(keyString(key), null);
  }

  async list(appName: string, userId?: string): Promise<number> {
    if (userId === undefined) throw new Error('/api lists one user’s sessions');
    const response = await this.send('GET', `/api/apps/${encodeURIComponent(appName)}/users/${encodeURIComponent(userId)}/sessions`);
    return ((await response.json()) as unknown[]).length;
  }

  private async withRaw(fn: (raw: RawSqliteTarget | RawPostgresTarget) => Promise<void>): Promise<void> {
    const raw = this.provider === 'sqlite' ? new RawSqliteTarget(this.url.slice('file:'.length)) : new RawPostgresTarget(this.url);
    try {
      await fn(raw);
    } finally {
      await raw.close();
    }
  }

  seedSessions(appName: string, sessions: SeedSession[]): Promise<void> {
    return this.withRaw((raw) => raw.seedSessions(appName, sessions));
  }

  async seedEvents(key: SessionKey, events: BenchEvent[]): Promise<void> {
    await this.withRaw((raw) => raw.seedEvents(key, events));
    this.forget(key);
  }

  forget(key: SessionKey): void {
    this.revisions.delete(keyString(key));
  }

  close(): Promise<void> {
    return this.server.stop();
  }
}
