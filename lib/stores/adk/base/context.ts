// What every operation of an ADK store works with: the agent's database, the
// family's codec, the store's description, its audit, and the replay cache.
import { readOnlyStore, unsupported } from '../../../session-service/errors';
import { SEARCH_COUNT_LIMIT } from '../../../session-service/paging';
import type { StoreInfo } from '../../../session-service/store';
import type { AgentDb } from '../agent-db';
import type { AgentQuery } from '../agent-db';
import type { CreateWrite, FamilyCodec, FamilyWrites, TimeColumn } from '../family';
import type { EditAudit } from './audit';
import type { SessionLog } from './session-log';
import { MemoryCheckpoints, type CheckpointStore } from './checkpoints';
import type { Replay } from './replay';
import { RowDecoder } from './row-decoder';
import type { FollowOptions, IndexStatus, SearchIndex } from './search-index';
import { q } from './sql';

export const REPLAY_CACHE_SIZE = 32;

export interface AdkStoreOptions {
  info: StoreInfo;
  audit?: EditAudit;
  /** Titles, labels, fork links and the operations history, in Statehouse's own database. */
  sessionLog?: SessionLog;
  /** Where long sessions' time-travel checkpoints are kept; in memory when absent. */
  checkpoints?: CheckpointStore;
  searchCountLimit?: number;
  /** The store's search index in Statehouse's own database; without it find is a bounded scan. */
  searchIndex?: SearchIndex;
  /** How the index is kept (search-follower.ts). */
  follow?: FollowOptions;
}

/** What writes a whole session (a fork, an import) the family's way. */
export interface SessionWriter {
  createSession(q: AgentQuery, write: CreateWrite): Promise<void>;
  insertEvent: NonNullable<FamilyWrites['insertEvent']>;
}

export interface CachedReplay {
  marker: string;
  replay: Replay;
}

/** Quoted table and column names of one family's layout. */
function namesOf(codec: FamilyCodec) {
  const s = codec.layout.sessions;
  const e = codec.layout.events;
  const a = codec.layout.appStates;
  const u = codec.layout.userStates;
  return {
    s: {
      t: q(s.table),
      app: q(s.appName),
      user: q(s.userId),
      id: q(s.id),
      state: q(s.state),
      create: q(s.createTime),
      update: q(s.updateTime),
      /** update_time as a read selects it (a family may mark values it knows to be on another clock). */
      updateRead: codec.sessionUpdateRead ? codec.sessionUpdateRead(q(s.updateTime), q(s.createTime)) : q(s.updateTime),
    },
    e: {
      t: q(e.table),
      id: q(e.id),
      app: q(e.appName),
      user: q(e.userId),
      session: q(e.sessionId),
      ts: q(e.timestamp),
      cols: e.columns.map(q).join(', '),
    },
    a: { t: q(a.table), app: q(a.appName), state: q(a.state), update: q(a.updateTime) },
    u: { t: q(u.table), app: q(u.appName), user: q(u.userId), state: q(u.state), update: q(u.updateTime) },
  };
}

export class AdkStoreContext {
  readonly info: StoreInfo;
  readonly audit: EditAudit | undefined;
  readonly sessionLog: SessionLog | undefined;
  readonly checkpoints: CheckpointStore;
  readonly searchCountLimit: number;
  readonly searchIndex: SearchIndex | undefined;
  /** How far the search index is; set by the store that runs its follower. */
  indexStatus: () => IndexStatus | null = () => null;
  readonly replays = new Map<string, CachedReplay>();
  /** Decodes rows so that what cannot be read stays with its own session. */
  readonly rows: RowDecoder;
  /** Sessions, events, app states, user states: quoted names. */
  readonly s: ReturnType<typeof namesOf>['s'];
  readonly e: ReturnType<typeof namesOf>['e'];
  readonly a: ReturnType<typeof namesOf>['a'];
  readonly u: ReturnType<typeof namesOf>['u'];

  constructor(
    readonly db: AgentDb,
    readonly codec: FamilyCodec,
    options: AdkStoreOptions,
  ) {
    this.info = options.info;
    this.audit = options.audit;
    this.sessionLog = options.sessionLog;
    this.checkpoints = options.checkpoints ?? new MemoryCheckpoints();
    this.searchCountLimit = options.searchCountLimit ?? SEARCH_COUNT_LIMIT;
    this.searchIndex = options.searchIndex;
    this.rows = new RowDecoder(codec);
    ({ s: this.s, e: this.e, a: this.a, u: this.u } = namesOf(codec));
  }

  /** Float seconds of a tier's update time, or 0 when it cannot be read. */
  seconds(raw: unknown, column: TimeColumn): number {
    return this.rows.secondsOrNull(raw, column) ?? 0;
  }

  writes(): FamilyWrites {
    if (this.info.readOnlyReason || !this.codec.writes) throw readOnlyStore(this.info.readOnlyReason ?? 'this family has no writer.');
    return this.codec.writes;
  }

  /** The family's create and event insert, for writing a whole session; UNSUPPORTED (saying why) when it has none. */
  sessionWriter(operation: 'fork' | 'import'): SessionWriter {
    const writes = this.writes();
    const reason = sessionWriterMissing(this.info.label, writes);
    if (reason || !writes.createSession || !writes.insertEvent)
      throw unsupported(`${operation === 'fork' ? 'Forking' : 'Importing'}: ${reason}`);
    return { createSession: writes.createSession.bind(writes), insertEvent: writes.insertEvent.bind(writes) };
  }

  /** On PostgreSQL and MySQL a write locks the rows it read and will rewrite, as adk-python's own append does (with_for_update); SQLite's BEGIN EXCLUSIVE already holds the file. */
  forUpdate(lock: boolean): string {
    return lock && this.db.dialect !== 'sqlite' ? ' FOR UPDATE' : '';
  }
}

/** Why a family cannot write whole sessions; undefined when it can. */
export function sessionWriterMissing(label: string, writes: FamilyWrites | undefined): string | undefined {
  if (!writes) return `Statehouse does not write ${label} stores.`;
  if (!writes.createSession) return `Statehouse does not create sessions the way ${label} does.`;
  if (!writes.insertEvent) return `Statehouse does not write ${label} events outside an append.`;
  return undefined;
}
