// The SessionStore over a database an ADK implementation writes, for any
// family (../family.ts): the family says how rows are laid out and encoded,
// the operations (one file per concern) say how the console reads and writes
// them. Reads never write; a write is one short transaction that writes what
// that ADK writes.
import { bindOperations } from '../../../session-service/bind';
import type { SessionStore, StoreInfo } from '../../../session-service/store';
import type { AgentDb, PoolUse } from '../agent-db';
import type { FamilyCodec } from '../family';
import { AdkStoreContext, type AdkStoreOptions } from './context';
import { historyReads } from './history';
import { listReads } from './lists';
import { sessionReads } from './session-reads';
import { importSessions } from './copy-in';
import { refusalOf } from './refusals';
import { forkSession } from './fork';
import { prune } from './prune';
import { getSessionMeta, listOperations, setSessionMeta } from './session-meta';
import { searchEvents } from './event-search';
import { find } from './search';
import { SearchFollower } from './search-follower';
import { getStateAsOf } from './time-travel';
import { storeWrites } from './writes';

export type { AdkStoreOptions } from './context';

export interface AdkSessionStore extends SessionStore {
  readonly info: StoreInfo;
  close(): Promise<void>;
  /** One trivial query: whether the agent's database answers (readiness). */
  ping(): Promise<void>;
  /** Its PostgreSQL pool's connections right now (metrics); undefined on SQLite. */
  poolUse(): PoolUse | undefined;
  /** What keeps its search index, when it has one in Statehouse's database. */
  readonly searchFollower?: SearchFollower;
}

export function createAdkSessionStore(db: AgentDb, codec: FamilyCodec, options: AdkStoreOptions): AdkSessionStore {
  const ctx = new AdkStoreContext(db, codec, options);
  // The follower reads through a connection of its own where the database offers one: its waits never queue a request.
  const follower = options.searchIndex
    ? new SearchFollower(new AdkStoreContext(db.reader?.() ?? db, codec, options), options.searchIndex, options.follow)
    : undefined;
  if (follower) {
    ctx.indexStatus = () => follower.status();
    follower.start();
  }
  // Events are searched through the index when there is one; without it lib/data/event-search.ts scans.
  const reads = { ...sessionReads, ...listReads, ...historyReads, find, getStateAsOf, ...(follower ? { searchEvents } : {}) };
  const sessionOperations = { forkSession, importSessions, prune, getSessionMeta, setSessionMeta, listOperations };
  return {
    info: ctx.info,
    ...(follower ? { searchFollower: follower } : {}),
    close: async () => {
      await follower?.stop();
      await db.close();
    },
    ping: async () => {
      await db.all('SELECT 1');
    },
    poolUse: () => db.poolUse?.(),
    refusalOf: (operation) => refusalOf(ctx, operation),
    ...bindOperations(ctx, { ...storeWrites, ...reads, ...sessionOperations }),
  };
}
