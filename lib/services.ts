// The composition root: the one place that builds a session store and the
// account store for a database URL, and the only way the rest of the code
// gets them. Everything above (pages, actions, routes, the adk-js adapter,
// scripts, tests) asks here; nothing else constructs a store.
import { AccountStore } from './auth/store';
import { databaseUrl } from './config';
import { openDatabase, providerOf, type Database } from './db';
import { DatabaseUnavailableError } from './db/unavailable';
import { migrateDatabase } from './migrate';
import type { SessionStore } from './session-service/store';
import { NativeSessionStore, type NativeStoreOptions } from './stores/native';

export interface Services {
  store: SessionStore;
  accounts: AccountStore;
}

/** Services on a database this caller opened and must close. */
export interface OpenedServices extends Services {
  store: NativeSessionStore;
  db: Database;
  close(): Promise<void>;
}

export interface OpenOptions extends NativeStoreOptions {
  /**
   * Apply pending migrations first. Default: for SQLite only; a PostgreSQL
   * server is migrated deliberately (npm run db:migrate).
   */
  migrate?: boolean;
}

/** Opens (and, by default for SQLite, migrates) the database at `url` and builds its stores. */
export async function openServices(url: string, options: OpenOptions = {}): Promise<OpenedServices> {
  const { migrate = providerOf(url) === 'sqlite', ...storeOptions } = options;
  if (migrate) await migrateDatabase(url);
  const db = await openDatabase(url);
  return {
    store: new NativeSessionStore(db.client, db.provider, storeOptions),
    accounts: new AccountStore(db.client),
    db,
    close: () => db.close(),
  };
}

const processWide = globalThis as unknown as {
  statehouseServices?: Promise<Services>;
  statehouseServicesForTests?: Partial<Services>;
};

/**
 * The services this process serves, for the configured database: built once
 * (kept on globalThis so dev reloads reuse one connection); a failed build is
 * retried on the next call and reported as the database being unavailable.
 */
async function configuredServices(): Promise<Services> {
  processWide.statehouseServices ??= openServices(databaseUrl()).catch((error: unknown) => {
    processWide.statehouseServices = undefined;
    throw error;
  });
  try {
    return await processWide.statehouseServices;
  } catch (error) {
    throw new DatabaseUnavailableError(error);
  }
}

export async function getStore(): Promise<SessionStore> {
  return processWide.statehouseServicesForTests?.store ?? (await configuredServices()).store;
}

export async function getAccountStore(): Promise<AccountStore> {
  return processWide.statehouseServicesForTests?.accounts ?? (await configuredServices()).accounts;
}

/** Tests serve routes and actions from stores they built; `{}` restores the configured ones. */
export function setServicesForTests(services: Partial<Services>): void {
  processWide.statehouseServicesForTests = services;
}
