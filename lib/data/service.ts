import { AccountStore } from '../auth/store';
import { databaseUrl } from '../config';
import { openDatabase, providerOf } from '../db';
import { migrateDatabase } from '../migrate';
import { PrismaSessionService } from '../session-service';

/** What the process keeps per database: the session service and the account store, on one client. */
interface Connection {
  service: PrismaSessionService;
  accounts: AccountStore;
}

const globalForService = globalThis as unknown as { statehouseConnection?: Promise<Connection> };

async function connect(url: string): Promise<Connection> {
  // The embedded default migrates itself on first start; a PostgreSQL
  // server is migrated deliberately (npm run db:migrate).
  if (providerOf(url) === 'sqlite') await migrateDatabase(url);
  const db = await openDatabase(url);
  return { service: new PrismaSessionService(db.client, db.provider), accounts: new AccountStore(db.client) };
}

/** The process-wide connection (kept on globalThis so dev reloads reuse one client); a failed connect is retried next time. */
function connection(): Promise<Connection> {
  globalForService.statehouseConnection ??= connect(databaseUrl()).catch((error: unknown) => {
    globalForService.statehouseConnection = undefined;
    throw error;
  });
  return globalForService.statehouseConnection;
}

export async function getSessionService(): Promise<PrismaSessionService> {
  return (await connection()).service;
}

export async function getAccountStore(): Promise<AccountStore> {
  return (await connection()).accounts;
}
