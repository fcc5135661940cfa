// The composition root: the one place that builds a session store and the
// account store for a database URL, and the only way the rest of the code
// gets them. Everything above (pages, actions, routes, the adk-js adapter,
// scripts, tests) asks here; nothing else constructs a store.
import { AsyncLocalStorage } from 'node:async_hooks';
import { AgentSendLog } from './agent-server/send-log';
import { AccountStore } from './auth/store';
import { agentStoreLocations, databaseUrl, type AgentStoreLocation } from './config';
import { openDatabase, providerOf, redactUrl, type Database } from './db';
import { DatabaseUnavailableError } from './db/unavailable';
import { migrateDatabase } from './migrate';
import { measuredStore } from './observability/measured-store';
import { metricsEnabled } from './observability/exposition';
import { observePool } from './observability/metrics';
import { tracingEnabled } from './observability/tracing';
import { SessionServiceError } from './session-service/errors';
import type { SessionStore, StoreInfo } from './session-service/store';
import { openAdkStore, type AdkSessionStore } from './stores/adk';
import { StoreEditLog } from './stores/adk/audit-log';
import { StoreSessionLog } from './stores/adk/session-log';
import { TimelineCheckpointLog } from './stores/adk/checkpoint-log';
import type { FollowOptions } from './stores/adk/base/search-index';
import { StoreSearchIndex } from './stores/adk/search-index-log';
import { createNativeSessionStore, type NativeSessionStore, type NativeStoreOptions } from './stores/native';
import { SqlNoteStore } from './stores/notes/sql-notes';
import { SqlSavedViewStore } from './stores/saved-views/sql-saved-views';
import { SqlAuditLog } from './stores/audit/sql-audit-log';
import type { AuditLog } from './session-service/audit-log';
import type { NoteStore } from './session-service/notes';
import type { SavedViewStore } from './session-service/saved-views';

/** One store the console serves, with what it is. */
export interface ServedStore {
  store: SessionStore;
  info: StoreInfo;
}

export interface Services {
  /** The first store: served at the root of the console and the API. */
  store: SessionStore;
  /** What the served store is; the console shows it and hides writes it refuses. */
  info: StoreInfo;
  /** Every served store by id, the first first; without it, `store` alone. */
  served?: ReadonlyMap<string, ServedStore>;
  accounts: AccountStore;
  /** Messages sent to agents from the console (Statehouse's own database). */
  sendLog?: AgentSendLog;
  /** Notes on sessions, in Statehouse's own database whatever the store. */
  notes?: NoteStore;
  /** Each account's saved views of session lists, in Statehouse's own database whatever the store. */
  savedViews?: SavedViewStore;
  /** Every edit and operation recorded in Statehouse's own database. */
  auditLog?: AuditLog;
  /** Every database these services use, by name, each answering one trivial query (readiness). */
  probes?: Probe[];
}

/** One database the services depend on: `statehouse` (its own) or a served store's id. */
export interface Probe {
  name: string;
  check(): Promise<void>;
}

/** The name of Statehouse's own database in readiness answers. */
export const OWN_DATABASE = 'statehouse';

function ownDatabaseProbe(db: Database): Probe {
  return {
    name: OWN_DATABASE,
    check: async () => {
      await db.client.$queryRaw`SELECT 1`;
    },
  };
}

/** Statehouse's own tables as the served store. */
export function nativeStoreInfo(url: string): StoreInfo {
  return {
    id: 'native',
    family: 'native',
    label: 'Statehouse',
    version: 'native',
    description: 'Statehouse’s own session tables',
    location: redactUrl(url),
  };
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
    store: createNativeSessionStore(db.client, db.provider, storeOptions),
    info: nativeStoreInfo(url),
    accounts: new AccountStore(db.client),
    sendLog: new AgentSendLog(db.client),
    notes: new SqlNoteStore(db.client, db.provider),
    savedViews: new SqlSavedViewStore(db.client),
    auditLog: new SqlAuditLog(db.client),
    probes: [ownDatabaseProbe(db)],
    db,
    close: () => db.close(),
  };
}

/** Services over agents' ADK databases: the stores are theirs, accounts and the edit audit are in Statehouse's own database. */
export interface AgentServices extends Services {
  store: AdkSessionStore;
  /** Every opened store by id; `store` is the first. */
  stores: Map<string, AdkSessionStore>;
  db: Database;
  close(): Promise<void>;
}

/**
 * Opens Statehouse's own database at `ownUrl` (migrated like openServices)
 * and each agent store read as its ADK wrote it. Nothing is created, migrated
 * or locked in an agent's database by opening it.
 */
export async function openAgentServices(
  ownUrl: string,
  locations: AgentStoreLocation[],
  options: Pick<OpenOptions, 'migrate'> & { readOnly?: boolean; follow?: FollowOptions } = {},
): Promise<AgentServices> {
  const first = locations[0];
  if (!first) throw new Error('openAgentServices needs at least one store location.');
  const { migrate = providerOf(ownUrl) === 'sqlite' } = options;
  if (migrate) await migrateDatabase(ownUrl);
  const db = await openDatabase(ownUrl);
  const audit = new StoreEditLog(db.client);
  const sessionLog = new StoreSessionLog(db.client, db.provider);
  const checkpoints = new TimelineCheckpointLog(db.client);
  const searchIndex = new StoreSearchIndex(db.client, db.provider);
  const stores = new Map<string, AdkSessionStore>();
  try {
    for (const { id, location } of locations) {
      stores.set(
        id,
        await openAdkStore(location, {
          id,
          audit,
          sessionLog,
          checkpoints,
          searchIndex,
          readOnly: options.readOnly,
          follow: options.follow,
        }),
      );
    }
  } catch (error) {
    await Promise.all([...stores.values()].map((store) => store.close()));
    await db.close();
    throw error;
  }
  const store = stores.get(first.id) as AdkSessionStore;
  return {
    store,
    stores,
    info: store.info,
    served: new Map([...stores].map(([id, opened]) => [id, { store: opened, info: opened.info }])),
    accounts: new AccountStore(db.client),
    sendLog: new AgentSendLog(db.client),
    notes: new SqlNoteStore(db.client, db.provider),
    savedViews: new SqlSavedViewStore(db.client),
    auditLog: new SqlAuditLog(db.client),
    probes: [ownDatabaseProbe(db), ...[...stores].map(([id, opened]) => ({ name: id, check: () => opened.ping() }))],
    db,
    close: async () => {
      await Promise.all([...stores.values()].map((opened) => opened.close()));
      await db.close();
    },
  };
}

const processWide = globalThis as unknown as {
  statehouseServices?: Promise<Services>;
  /** The served stores of statehouseServices once it has opened (the most requests find it so). */
  statehouseServedStores?: ReadonlyMap<string, ServedStore>;
  statehouseServicesForTests?: Partial<Services>;
};

/** STATEHOUSE_STORE's agent databases when set, else Statehouse's own sessions; measured when metrics are on. */
async function openConfigured(): Promise<Services> {
  const agents = agentStoreLocations();
  const services = agents.length > 0 ? await openAgentServices(databaseUrl(), agents) : await openServices(databaseUrl());
  return metricsEnabled() || tracingEnabled() ? measured(services) : services;
}

/** The services with their store's calls timed and traced, and their pools reported (lib/observability). */
function measured(services: OpenedServices | AgentServices): Services {
  const { poolUse } = services.db;
  if (poolUse) observePool(OWN_DATABASE, poolUse);
  if ('stores' in services) {
    for (const [id, store] of services.stores) {
      if (store.poolUse()) observePool(id, () => store.poolUse() ?? { total: 0, idle: 0, waiting: 0 });
    }
  }
  const served = new Map(
    [...servedStores(services)].map(([id, { store, info }]) => [id, { store: measuredStore(store, info.family), info }]),
  );
  return { ...services, store: served.get(services.info.id)?.store ?? services.store, served };
}

/** Every store the services serve, by id, the first first. */
function servedStores(services: Partial<Services>): ReadonlyMap<string, ServedStore> {
  if (services.served) return services.served;
  if (!services.store) return new Map();
  const info = services.info ?? nativeStoreInfo('test');
  return new Map([[info.id, { store: services.store, info }]]);
}

/**
 * The request header that names the store a page or a server action is for:
 * proxy.ts sets it from the path (`/stores/{id}/...`) and removes any the
 * client sent. API requests name theirs by their path too (inStoreScope).
 */
export const STORE_HEADER = 'x-statehouse-store';

const storeScope = ((globalThis as { statehouseStoreScope?: AsyncLocalStorage<{ storeId?: string }> }).statehouseStoreScope ??=
  new AsyncLocalStorage<{ storeId?: string }>());

/** Runs `fn` for the store with this id (undefined: the first), whatever the request's headers say. */
export function inStoreScope<T>(storeId: string | undefined, fn: () => Promise<T>): Promise<T> {
  return storeScope.run(storeId === undefined ? {} : { storeId }, fn);
}

/** The store this request names: its scope (an API request), else the page's header; undefined at the root (the first store). */
export async function requestedStoreId(): Promise<string | undefined> {
  const scoped = storeScope.getStore();
  if (scoped) return scoped.storeId;
  try {
    // Loaded when asked: scripts and test runners import this module outside Next.
    const { headers } = await import('next/headers');
    const named = (await headers()).get(STORE_HEADER);
    return named === null ? undefined : decodeURIComponent(named);
  } catch {
    // Outside a request (scripts, tests, start-up): the first store.
    return undefined;
  }
}

/** NOT_FOUND naming the stores there are. */
function unknownStore(id: string, served: ReadonlyMap<string, ServedStore>): SessionServiceError {
  return new SessionServiceError('NOT_FOUND', `No store "${id}" is served here; the stores are ${[...served.keys()].join(', ')}.`);
}

/** The store with this id (undefined: the first), or NOT_FOUND. */
function storeWithId(served: ReadonlyMap<string, ServedStore>, id: string | undefined): ServedStore {
  if (id === undefined) return served.values().next().value as ServedStore;
  const chosen = served.get(id);
  if (!chosen) throw unknownStore(id, served);
  return chosen;
}

/** The served stores when they need no waiting: the test's, or the configured ones once open. */
function servedStoresNow(): ReadonlyMap<string, ServedStore> | undefined {
  const forTests = processWide.statehouseServicesForTests;
  return forTests?.store ? servedStores(forTests) : processWide.statehouseServedStores;
}

/** The store the request is for (see requestedStoreId), or NOT_FOUND. */
async function selectedStore(): Promise<ServedStore> {
  const served = servedStoresNow() ?? servedStores(await configuredServices());
  return storeWithId(served, await requestedStoreId());
}

/**
 * selectedStore's answer, picked by `pick`. An API request (in its store
 * scope) after the services opened gets it in one settled promise, not
 * through the awaits of selectedStore, configuredServices and
 * requestedStoreId: eight promises and as many turns of the microtask queue
 * on every request, each promise dearer while an AsyncLocalStorage is enabled.
 */
function selected<T>(pick: (served: ServedStore) => T): Promise<T> {
  const served = servedStoresNow();
  const scope = storeScope.getStore();
  if (!served || !scope) return selectedStore().then(pick);
  // A store not served (NOT_FOUND) rejects the promise, as the executor throws.
  return new Promise((resolve) => resolve(pick(storeWithId(served, scope.storeId))));
}

/**
 * The services this process serves, for the configured database: built once
 * (kept on globalThis so dev reloads reuse one connection); a failed build is
 * retried on the next call and reported as the database being unavailable.
 */
async function configuredServices(): Promise<Services> {
  processWide.statehouseServices ??= openConfigured().catch((error: unknown) => {
    processWide.statehouseServices = undefined;
    throw error;
  });
  try {
    const services = await processWide.statehouseServices;
    processWide.statehouseServedStores ??= servedStores(services);
    return services;
  } catch (error) {
    throw new DatabaseUnavailableError(error);
  }
}

/** The store this request is for: the first, or the one its path names (`/stores/{id}/...`). */
export function getStore(): Promise<SessionStore> {
  return selected((served) => served.store);
}

/** What the store this request is for is (native, or which ADK wrote it, and whether it takes writes). */
export function getStoreInfo(): Promise<StoreInfo> {
  return selected((served) => served.info);
}

/** Every served store, the first first (the header's switcher). */
export async function listStoreInfos(): Promise<StoreInfo[]> {
  const forTests = processWide.statehouseServicesForTests;
  const services = forTests?.store ? forTests : await configuredServices();
  return [...servedStores(services).values()].map((served) => served.info);
}

export async function getAccountStore(): Promise<AccountStore> {
  return processWide.statehouseServicesForTests?.accounts ?? (await configuredServices()).accounts;
}

/** The send log of the configured services (or the test's). */
export async function getAgentSendLog(): Promise<AgentSendLog> {
  const log = processWide.statehouseServicesForTests?.sendLog ?? (await configuredServices()).sendLog;
  if (!log) throw new Error('These services have no send log.');
  return log;
}

/** Notes on sessions (Statehouse's own database) and the id of the store whose sessions they are about. */
export async function getNotes(): Promise<{ notes: NoteStore; storeId: string }> {
  const forTests = processWide.statehouseServicesForTests;
  const services = forTests?.store ? forTests : await configuredServices();
  if (!services.notes) throw new Error('These services keep no notes (a test set a store without a note store).');
  return { notes: services.notes, storeId: (await getStoreInfo()).id };
}

/** Saved views (Statehouse's own database) and the id of the store whose lists they are of. */
export async function getSavedViews(): Promise<{ views: SavedViewStore; storeId: string }> {
  const forTests = processWide.statehouseServicesForTests;
  const services = forTests?.store ? forTests : await configuredServices();
  if (!services.savedViews) throw new Error('These services keep no saved views (a test set a store without a view store).');
  return { views: services.savedViews, storeId: (await getStoreInfo()).id };
}

/** The audit log (Statehouse's own database) and the id of the served store whose records it shows. */
export async function getAuditLog(): Promise<{ log: AuditLog; storeId: string }> {
  const forTests = processWide.statehouseServicesForTests;
  const services = forTests?.store ? forTests : await configuredServices();
  if (!services.auditLog) throw new Error('These services keep no audit log (a test set a store without one).');
  return { log: services.auditLog, storeId: (await getStoreInfo()).id };
}

/** Tests serve routes and actions from stores they built; `{}` restores the configured ones. */
export function setServicesForTests(services: Partial<Services>): void {
  processWide.statehouseServicesForTests = services;
}

/** Whether each database answered within the deadline, by name. */
export type Readiness = Record<string, boolean>;

/** Resolves true when `check` succeeds within `deadlineMs`, false when it fails or is late. */
async function answersWithin(check: () => Promise<unknown>, deadlineMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), deadlineMs);
  });
  try {
    return await Promise.race([
      check().then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The names readiness reports when the services could not even be opened: every database configured. */
function configuredNames(): string[] {
  return [OWN_DATABASE, ...agentStoreLocations().map(({ id }) => id)];
}

/**
 * Whether Statehouse's own database and every served store answer a trivial
 * query within `deadlineMs` (opening them first if this process has not yet).
 * When they cannot be opened at all, every configured name is down.
 */
export async function checkReadiness(deadlineMs: number): Promise<Readiness> {
  const forTests = processWide.statehouseServicesForTests;
  const deadline = Date.now() + deadlineMs;
  let probes: Probe[] | undefined = forTests?.store ? (forTests.probes ?? []) : undefined;
  if (!probes) {
    let services: Services | undefined;
    const opened = await answersWithin(async () => {
      services = await configuredServices();
    }, deadlineMs);
    if (!opened || !services) return Object.fromEntries(configuredNames().map((name) => [name, false]));
    probes = services.probes ?? [];
  }
  const left = Math.max(0, deadline - Date.now());
  const results = await Promise.all(probes.map(async (probe) => [probe.name, await answersWithin(probe.check, left)] as const));
  return Object.fromEntries(results);
}
