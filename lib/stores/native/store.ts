// ADK's session service on a Prisma client (SQLite or PostgreSQL through
// driver adapters). Every write is one transaction; appends are guarded by a
// compare-and-swap on the session's revision, shared tiers by per-key rows.
// Each operation is a function of the store's context, in the file of its
// concern (as lib/stores/adk/base/ has them); the facade binds them to one
// context, typed by the SessionStore interface, so no signature is written twice.
import type { SqlClient } from '../../db/sql';
import { bindOperations } from '../../session-service/bind';
import type { SessionOperations } from '../../session-service/operations';
import type { EventSearchRequest, EventSearchResult, FindRequest, FindResult } from '../../session-service/search';
import type { SessionStore } from '../../session-service/store';
import { StoreContext, type NativeStoreOptions } from './context';
import { importSessions } from './copy-in';
import type { Dialect } from './dialect';
import { errorEventCounts } from './error-events';
import { forkSession } from './fork';
import { historyReads } from './history';
import { listReads } from './lists';
import { listOperations } from './operation-log';
import { prune } from './prune';
import { findDocs } from './search-docs';
import { searchEventDocs } from './event-search';
import { getSessionMeta, setSessionMeta } from './session-meta';
import { sessionReads } from './session-reads';
import { NativeTestNamespaces } from './test-namespaces';
import { storeWrites } from './writes';

/** The header search over Statehouse's own sessions (search-docs.ts). */
function find(ctx: StoreContext, request: FindRequest): Promise<FindResult> {
  return ctx.read((tx) => findDocs(tx, ctx.dialect, 'native', request));
}

/** The app-wide event search over Statehouse's own sessions (event-search.ts): every event is in the text index. */
async function searchEvents(ctx: StoreContext, request: EventSearchRequest): Promise<EventSearchResult> {
  return { hits: await ctx.read((tx) => searchEventDocs(tx, ctx.dialect, request)), method: 'index' };
}

/** Statehouse's own store: every SessionStore operation and every session operation. */
export type NativeSessionStore = SessionStore &
  Required<SessionOperations> & {
    /** Test kits' namespaces: the only data clearing may remove (test-namespaces.ts). */
    readonly testNamespaces: NativeTestNamespaces;
  };

export function createNativeSessionStore(client: SqlClient, dialect: Dialect, options: NativeStoreOptions = {}): NativeSessionStore {
  const ctx = new StoreContext(client, dialect, options);
  const reads = { ...sessionReads, ...listReads, ...historyReads, errorEventCounts, find, searchEvents };
  const sessionOperations = { forkSession, importSessions, getSessionMeta, setSessionMeta, prune, listOperations };
  const operations = bindOperations(ctx, { ...storeWrites, ...reads, ...sessionOperations });
  return { ...operations, testNamespaces: new NativeTestNamespaces(ctx) };
}
