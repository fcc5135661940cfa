// Statehouse through the door an adk-js agent uses: lib/agent-service's
// StatehouseSessionService, session objects held as a Runner holds them,
// appends through appendEvent on them, pages through listSessions.
import type { Session } from '@google/adk';
import { StatehouseSessionService } from '../../lib/agent-service/statehouse-session-service';
import { adkEvent } from './adk-event';
import { RawPostgresTarget } from './raw-postgres';
import { RawSqliteTarget } from './raw-sqlite';
import { keyString, type BenchEvent, type BenchTarget, type Delta, type ReadResult, type SeedSession, type SessionKey } from './types';

export class StatehouseAdkTarget implements BenchTarget {
  readonly impl = 'statehouse-adk';
  private readonly sessions = new Map<string, Session>();
  private readonly service: StatehouseSessionService;

  constructor(
    readonly provider: 'sqlite' | 'postgresql',
    private readonly url: string,
  ) {
    this.service = new StatehouseSessionService({ databaseUrl: url, migrate: true });
  }

  async create(key: SessionKey, state: Delta): Promise<void> {
    this.sessions.set(keyString(key), await this.service.createSession({ ...key, state }));
  }

  async append(key: SessionKey, event: BenchEvent): Promise<void> {
    const session = this.sessions.get(keyString(key));
    if (!session) throw new Error(`No loaded session ${key.sessionId}`);
    await this.service.appendEvent({ session, event: adkEvent(event) });
  }

  async get(key: SessionKey, numRecentEvents?: number): Promise<ReadResult | null> {
    const session = await this.service.getSession({ ...key, config: numRecentEvents === undefined ? undefined : { numRecentEvents } });
    return session ? { eventCount: session.events.length, state: session.state } : null;
  }

  async load(key: SessionKey): Promise<void> {
    const session = await this.service.getSession({ ...key, config: { numRecentEvents: 1 } });
    if (!session) throw new Error(`Session ${key.sessionId} not found.`);
    this.sessions.set(keyString(key), session);
  }

  async list(appName: string, userId?: string): Promise<number> {
    return (await this.service.listSessions({ appName, userId })).sessions.length;
  }

  async sessionPage(appName: string, userId: string | undefined, limit: number): Promise<{ items: number; total: number }> {
    const page = await this.service.listSessions({ appName, userId, limit, order: 'desc' });
    return { items: page.sessions.length, total: page.totalItems };
  }

  /** Fixtures through the raw driver, into the same tables (as StatehouseTarget loads them). */
  private async withRaw(fn: (raw: RawSqliteTarget | RawPostgresTarget) => Promise<void>): Promise<void> {
    await this.service.getSession({ appName: '-', userId: '-', sessionId: '-' }); // opens and migrates
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
    this.sessions.delete(keyString(key));
  }

  close(): Promise<void> {
    return this.service.close();
  }
}
