// adk-js's DatabaseSessionService (MikroORM), as an adk-js user configures
// it: a connection string, `sqlite://<path>` or `postgresql://...`, and the
// ORM's defaults (on SQLite: rollback journal, synchronous=FULL).
import { DatabaseSessionService, type Session } from '@google/adk';
import { adkEvent } from './adk-event';
import { keyString, type BenchEvent, type BenchTarget, type Delta, type ReadResult, type SeedSession, type SessionKey } from './types';

/** The part of MikroORM used for fixtures and shutdown; the service keeps its ORM in a private field. */
interface OrmHandle {
  em: {
    fork(): { insertMany(entityName: string, rows: object[]): Promise<unknown> };
    getConnection(): { execute(sql: string): Promise<unknown> };
  };
  close(force?: boolean): Promise<void>;
}

function ormOf(service: DatabaseSessionService): OrmHandle {
  const orm = (service as unknown as { orm?: OrmHandle }).orm;
  if (!orm) throw new Error('DatabaseSessionService is not initialised');
  return orm;
}

export class AdkDatabaseTarget implements BenchTarget {
  readonly impl = 'adk-db';
  private readonly sessions = new Map<string, Session>();

  private constructor(
    readonly provider: 'sqlite' | 'postgresql',
    private readonly service: DatabaseSessionService,
  ) {}

  /** `url`: a Statehouse-style URL (file:<path> or postgresql://...), translated to ADK's form. */
  static async open(url: string): Promise<AdkDatabaseTarget> {
    const provider = url.startsWith('file:') ? 'sqlite' : 'postgresql';
    const service = new DatabaseSessionService(provider === 'sqlite' ? `sqlite://${url.slice('file:'.length)}` : url);
    await service.init();
    return new AdkDatabaseTarget(provider, service);
  }

  async create(key: SessionKey, state: Delta): Promise<void> {
    const session = await this.service.createSession({ ...key, state });
    this.sessions.set(keyString(key), session);
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
    return { items: page.sessions.length, total: page.totalItems ?? page.sessions.length };
  }

  /** Rows as the service writes them (its own entities, so its own JSON and datetime encoding). */
  async seedSessions(appName: string, sessions: SeedSession[]): Promise<void> {
    const now = new Date();
    const app: Record<string, unknown> = {};
    const users = new Map<string, Record<string, unknown>>();
    const rows = sessions.map((s) => {
      const state: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(s.state)) {
        if (key.startsWith('app:')) app[key.slice(4)] = value;
        else if (key.startsWith('user:')) users.set(s.userId, { ...users.get(s.userId), [key.slice(5)]: value });
        else if (!key.startsWith('temp:')) state[key] = value;
      }
      return { id: s.sessionId, appName, userId: s.userId, state, createTime: now, updateTime: now };
    });
    const em = ormOf(this.service).em.fork();
    await em.insertMany('StorageSession', rows);
    await em.insertMany('StorageAppState', [{ appName, state: app, updateTime: now }]);
    await em.insertMany(
      'StorageUserState',
      [...users].map(([userId, state]) => ({ appName, userId, state, updateTime: now })),
    );
    await this.analyze();
  }

  /** Planner statistics after a bulk load on PostgreSQL, as for the other implementations (raw-postgres.ts). */
  private async analyze(): Promise<void> {
    if (this.provider === 'postgresql') await ormOf(this.service).em.getConnection().execute('ANALYZE');
  }

  async seedEvents(key: SessionKey, inputs: BenchEvent[]): Promise<void> {
    // Strictly increasing millisecond timestamps in the past (ADK orders by timestamp alone).
    const base = Date.now() - inputs.length - 1000;
    const rows = inputs.map((input, i) => {
      const event = adkEvent(input, base + i);
      return { id: event.id, ...key, invocationId: event.invocationId, timestamp: new Date(event.timestamp), eventData: event };
    });
    const em = ormOf(this.service).em.fork();
    for (let i = 0; i < rows.length; i += 1000) await em.insertMany('StorageEvent', rows.slice(i, i + 1000));
    await this.analyze();
    this.forget(key);
  }

  forget(key: SessionKey): void {
    this.sessions.delete(keyString(key));
  }

  async close(): Promise<void> {
    await ormOf(this.service).close(true);
  }
}
