// adk-js's DatabaseSessionService (MikroORM), as an adk-js user configures
// it: a connection string, `sqlite://<path>` or `postgresql://...`, and the
// ORM's defaults (on SQLite: rollback journal, synchronous=FULL).
import { DatabaseSessionService, type Session } from '@google/adk';
import { adkEvent } from './adk-event';
import { adkServiceDoor, DoorTarget, type Seeding } from './door';
import type { BenchEvent, SeedSession, SessionKey } from './types';

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

/** `url`: a Statehouse-style URL (file:<path> or postgresql://...), translated to ADK's form. */
export async function adkDatabaseTarget(url: string): Promise<DoorTarget<Session>> {
  const provider = url.startsWith('file:') ? 'sqlite' : 'postgresql';
  const service = new DatabaseSessionService(provider === 'sqlite' ? `sqlite://${url.slice('file:'.length)}` : url);
  await service.init();
  const close = () => ormOf(service).close(true);
  return new DoorTarget(adkServiceDoor('adk-db', provider, service, ormSeeding(service, provider), close));
}

/** Rows as the service writes them (its own entities, so its own JSON and datetime encoding). */
function ormSeeding(service: DatabaseSessionService, provider: 'sqlite' | 'postgresql'): Seeding {
  /** Planner statistics after a bulk load on PostgreSQL, as for the other implementations (raw-postgres.ts). */
  const analyze = async () => {
    if (provider === 'postgresql') await ormOf(service).em.getConnection().execute('ANALYZE');
  };
  return {
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
      const em = ormOf(service).em.fork();
      await em.insertMany('StorageSession', rows);
      await em.insertMany('StorageAppState', [{ appName, state: app, updateTime: now }]);
      await em.insertMany(
        'StorageUserState',
        [...users].map(([userId, state]) => ({ appName, userId, state, updateTime: now })),
      );
      await analyze();
    },

    async seedEvents(key: SessionKey, inputs: BenchEvent[]): Promise<void> {
      // Strictly increasing millisecond timestamps in the past (ADK orders by timestamp alone).
      const base = Date.now() - inputs.length - 1000;
      const rows = inputs.map((input, i) => {
        const event = adkEvent(input, base + i);
        return { id: event.id, ...key, invocationId: event.invocationId, timestamp: new Date(event.timestamp), eventData: event };
      });
      const em = ormOf(service).em.fork();
      for (let i = 0; i < rows.length; i += 1000) await em.insertMany('StorageEvent', rows.slice(i, i + 1000));
      await analyze();
    },
  };
}
