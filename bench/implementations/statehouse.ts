// Statehouse's NativeSessionStore, opened exactly as the app opens it:
// migrateDatabase(url), then openDatabase(url). `libDir` swaps in a scratch
// copy of lib/ (a prototype of a fix) without touching the tree.
import { join } from 'node:path';
import { raw } from '@prisma/client/runtime/client';
import { pathToFileURL } from 'node:url';
import type { Database } from '../../lib/db';
import type { SqlClient, SqlExecutor } from '../../lib/db/sql';
import type { Session } from '../../lib/session-service';
import { DoorTarget, rawSeeding, type Door } from './door';
import { newEventOf } from './raw-common';
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

/** NativeSessionStore as a door: its own Session objects held for appends. */
function storeDoor(
  provider: 'sqlite' | 'postgresql',
  url: string,
  db: Database,
  service: ReturnType<ServiceModule['createNativeSessionStore']>,
  counts: StatementCounts,
): Door<Session> {
  return {
    impl: 'statehouse',
    provider,
    counts,
    ...rawSeeding(provider, url),
    create: (key, state) => service.createSession({ ...key, state }),
    async append(_key, session, event) {
      await appendEvent(service, session, newEventOf(event));
      return session;
    },
    async get(key, numRecentEvents) {
      const session = await service.getSession(key, { numRecentEvents });
      return session && { eventCount: session.events.length, state: session.state };
    },
    load: (key) => service.getSession(key, { numRecentEvents: 1 }),
    async list(appName, userId) {
      return (await service.listSessions({ appName, userId })).sessions.length;
    },
    async listPage(appName, limit) {
      const page = await service.searchSessions({ appName, limit });
      return { items: page.items.length, total: page.total };
    },
    async sessionPage(appName, userId, limit) {
      const page = await service.listSessions({ appName, userId, limit, order: 'desc' });
      return { items: page.sessions.length, total: page.total };
    },
    async searchPage(appName, limit, idContains) {
      const page = await service.searchSessions({ appName, limit, idContains });
      return { items: page.items.length, total: page.total };
    },
    async usersPage(appName, limit) {
      const page = await service.listUsers(appName, { limit });
      return { items: page.items.length, total: page.total };
    },
    async stateTiers(key) {
      const tiers = await service.getSessionTiers(key);
      if (!tiers) throw new Error(`Session ${key.sessionId} not found.`);
      return tiers.app.length + tiers.user.length + tiers.session.length;
    },
    async gatherStatistics() {
      await db.client.$executeRaw(raw('ANALYZE'));
    },
    close: () => db.close(),
  };
}

export type StatehouseTarget = DoorTarget<Session>;

export async function openStatehouseTarget(url: string, options: { libDir?: string; migrate?: boolean } = {}): Promise<StatehouseTarget> {
  const { db: dbModule, migrate, service } = await modules(options.libDir);
  if (options.migrate !== false) await migrate.migrateDatabase(url);
  const db = await dbModule.openDatabase(url);
  const counts: StatementCounts = { statements: 0, transactions: 0 };
  const store = service.createNativeSessionStore(countingClient(db.client, counts), db.provider);
  return new DoorTarget(storeDoor(db.provider, url, db, store, counts));
}
