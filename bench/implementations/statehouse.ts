// Statehouse's NativeSessionStore, opened exactly as the app opens it:
// migrateDatabase(url), then openDatabase(url). `libDir` swaps in a scratch
// copy of lib/ (a prototype of a fix) without touching the tree.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Database } from '../../lib/db';
import type { SqlClient, SqlExecutor } from '../../lib/db/sql';
import type { Session } from '../../lib/session-service';
import { newEventOf } from './raw-common';
import { RawPostgresTarget } from './raw-postgres';
import { RawSqliteTarget } from './raw-sqlite';
import { keyString, type BenchEvent, type BenchTarget, type Delta, type ReadResult, type SeedSession, type SessionKey } from './types';
import { appendEvent } from '../../lib/session-service/append';

type DbModule = typeof import('../../lib/db');
type MigrateModule = typeof import('../../lib/migrate');
type ServiceModule = typeof import('../../lib/stores/native');

async function modules(libDir: string | undefined): Promise<{ db: DbModule; migrate: MigrateModule; service: ServiceModule }> {
  if (!libDir) {
    return {
      db: await import('../../lib/db'),
      migrate: await import('../../lib/migrate'),
      service: await import('../../lib/stores/native'),
    };
  }
  const load = (path: string) => import(pathToFileURL(join(libDir, path)).href);
  return {
    db: (await load('db/index.ts')) as DbModule,
    migrate: (await load('migrate/index.ts')) as MigrateModule,
    service: (await load('stores/native/index.ts')) as ServiceModule,
  };
}

/** Statements sent and transactions opened through the Prisma client. */
export interface StatementCounts {
  statements: number;
  transactions: number;
}

function countingExecutor(tx: SqlExecutor, counts: StatementCounts): SqlExecutor {
  return {
    $queryRaw: (query, ...values) => {
      counts.statements++;
      return tx.$queryRaw(query, ...values);
    },
    $executeRaw: (query, ...values) => {
      counts.statements++;
      return tx.$executeRaw(query, ...values);
    },
  };
}

function countingClient(client: SqlClient, counts: StatementCounts): SqlClient {
  const readNow = client.$readNow?.bind(client);
  return {
    ...countingExecutor(client, counts),
    $transaction: (fn, options) => {
      counts.transactions++;
      return client.$transaction((tx) => fn(countingExecutor(tx, counts)), options);
    },
    ...(readNow && {
      $readNow: (fn) =>
        readNow((tx) => {
          counts.transactions++;
          return fn({
            queryRows: (query) => {
              counts.statements++;
              return tx.queryRows(query);
            },
          });
        }),
    }),
  };
}

export class StatehouseTarget implements BenchTarget {
  readonly impl = 'statehouse';
  private readonly sessions = new Map<string, Session>();

  private constructor(
    readonly provider: 'sqlite' | 'postgresql',
    private readonly url: string,
    private readonly db: Database,
    private readonly service: InstanceType<ServiceModule['NativeSessionStore']>,
    readonly counts: StatementCounts,
  ) {}

  static async open(url: string, options: { libDir?: string; migrate?: boolean } = {}): Promise<StatehouseTarget> {
    const { db: dbModule, migrate, service } = await modules(options.libDir);
    if (options.migrate !== false) await migrate.migrateDatabase(url);
    const db = await dbModule.openDatabase(url);
    const counts: StatementCounts = { statements: 0, transactions: 0 };
    const client = countingClient(db.client, counts);
    return new StatehouseTarget(db.provider, url, db, new service.NativeSessionStore(client, db.provider), counts);
  }

  async create(key: SessionKey, state: Delta): Promise<void> {
    const session = await this.service.createSession({ ...key, state });
    this.sessions.set(keyString(key), session);
  }

  async append(key: SessionKey, event: BenchEvent): Promise<void> {
    const session = this.sessions.get(keyString(key));
    if (!session) throw new Error(`No loaded session ${key.sessionId}`);
    await appendEvent(this.service, session, newEventOf(event));
  }

  async get(key: SessionKey, numRecentEvents?: number): Promise<ReadResult | null> {
    const session = await this.service.getSession(key, { numRecentEvents });
    return session && { eventCount: session.events.length, state: session.state };
  }

  async load(key: SessionKey): Promise<void> {
    const session = await this.service.getSession(key, { numRecentEvents: 1 });
    if (!session) throw new Error(`Session ${key.sessionId} not found.`);
    this.sessions.set(keyString(key), session);
  }

  async list(appName: string, userId?: string): Promise<number> {
    return (await this.service.listSessions({ appName, userId })).sessions.length;
  }

  async listPage(appName: string, limit: number): Promise<{ items: number; total: number }> {
    const page = await this.service.searchSessions({ appName, limit });
    return { items: page.items.length, total: page.total };
  }

  async sessionPage(appName: string, userId: string | undefined, limit: number): Promise<{ items: number; total: number }> {
    const page = await this.service.listSessions({ appName, userId, limit, order: 'desc' });
    return { items: page.sessions.length, total: page.total };
  }

  async searchPage(appName: string, limit: number, idContains: string): Promise<{ items: number; total: number }> {
    const page = await this.service.searchSessions({ appName, limit, idContains });
    return { items: page.items.length, total: page.total };
  }

  async usersPage(appName: string, limit: number): Promise<{ items: number; total: number }> {
    const page = await this.service.listUsers(appName, { limit });
    return { items: page.items.length, total: page.total };
  }

  /** Fixtures go in through the raw driver: the same tables, so the same rows Statehouse would read. */
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
    this.sessions.delete(keyString(key));
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
