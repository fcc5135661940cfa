// One workload adapter over a small door interface. A door is what an
// implementation offers an agent (a session service, a store, an HTTP API),
// each in its own terms: `Held` is what it hands back from a create or a load
// and wants again for an append (an ADK Session object, a revision for
// If-Match). DoorTarget does the rest once: it keeps the held objects by
// key, as an agent runner keeps the session it loaded, and exposes the
// optional pages only where the door has them.
import type { BaseSessionService, Session } from '@google/adk';
import { adkEvent } from './adk-event';
import { RawPostgresTarget } from './raw-postgres';
import { RawSqliteTarget } from './raw-sqlite';
import {
  keyString,
  type BenchEvent,
  type BenchTarget,
  type Delta,
  type ImplName,
  type ProviderName,
  type ReadResult,
  type SeedSession,
  type SessionKey,
} from './types';

export interface Page {
  items: number;
  total: number;
}

/** Fixture loading into the door's own storage format, outside the timings. */
export interface Seeding {
  seedSessions(appName: string, sessions: SeedSession[]): Promise<void>;
  seedEvents(key: SessionKey, events: BenchEvent[]): Promise<void>;
}

export interface Door<Held> extends Seeding {
  readonly impl: ImplName;
  readonly provider: ProviderName;
  create(key: SessionKey, state: Delta): Promise<Held>;
  /** Appends through what create or load handed back; returns what the next append needs. */
  append(key: SessionKey, held: Held, event: BenchEvent): Promise<Held>;
  get(key: SessionKey, numRecentEvents?: number): Promise<ReadResult | null>;
  /** What later appends go through (a read of numRecentEvents: 1); null when the session is not there. */
  load(key: SessionKey): Promise<Held | null>;
  list(appName: string, userId?: string): Promise<number>;
  listPage?(appName: string, limit: number): Promise<Page>;
  sessionPage?(appName: string, userId: string | undefined, limit: number): Promise<Page>;
  searchPage?(appName: string, limit: number, idContains: string): Promise<Page>;
  usersPage?(appName: string, limit: number): Promise<Page>;
  stateTiers?(key: SessionKey): Promise<number>;
  gatherStatistics?(): Promise<void>;
  /** Statement and transaction counters, where the door keeps them. */
  readonly counts?: { statements: number; transactions: number };
  close(): Promise<void>;
}

export class DoorTarget<Held> implements BenchTarget {
  readonly impl: ImplName;
  readonly provider: ProviderName;
  readonly counts?: { statements: number; transactions: number };
  readonly listPage?: BenchTarget['listPage'];
  readonly sessionPage?: BenchTarget['sessionPage'];
  readonly searchPage?: BenchTarget['searchPage'];
  readonly usersPage?: BenchTarget['usersPage'];
  readonly stateTiers?: BenchTarget['stateTiers'];
  readonly gatherStatistics?: BenchTarget['gatherStatistics'];
  private readonly held = new Map<string, Held>();

  constructor(private readonly door: Door<Held>) {
    this.impl = door.impl;
    this.provider = door.provider;
    this.counts = door.counts;
    this.listPage = door.listPage?.bind(door);
    this.sessionPage = door.sessionPage?.bind(door);
    this.searchPage = door.searchPage?.bind(door);
    this.usersPage = door.usersPage?.bind(door);
    this.stateTiers = door.stateTiers?.bind(door);
    this.gatherStatistics = door.gatherStatistics?.bind(door);
  }

  async create(key: SessionKey, state: Delta): Promise<void> {
    this.held.set(keyString(key), await this.door.create(key, state));
  }

  async append(key: SessionKey, event: BenchEvent): Promise<void> {
    const k = keyString(key);
    if (!this.held.has(k)) throw new Error(`No loaded session ${key.sessionId}`);
    this.held.set(k, await this.door.append(key, this.held.get(k) as Held, event));
  }

  get(key: SessionKey, numRecentEvents?: number): Promise<ReadResult | null> {
    return this.door.get(key, numRecentEvents);
  }

  async load(key: SessionKey): Promise<void> {
    const held = await this.door.load(key);
    if (held === null) throw new Error(`Session ${key.sessionId} not found.`);
    this.held.set(keyString(key), held);
  }

  list(appName: string, userId?: string): Promise<number> {
    return this.door.list(appName, userId);
  }

  seedSessions(appName: string, sessions: SeedSession[]): Promise<void> {
    return this.door.seedSessions(appName, sessions);
  }

  async seedEvents(key: SessionKey, events: BenchEvent[]): Promise<void> {
    await this.door.seedEvents(key, events);
    this.forget(key);
  }

  forget(key: SessionKey): void {
    this.held.delete(keyString(key));
  }

  close(): Promise<void> {
    return this.door.close();
  }
}

/** Statehouse's doors load fixtures through the raw driver: the same tables, so the rows Statehouse would read. */
export function rawSeeding(provider: 'sqlite' | 'postgresql', url: string, before?: () => Promise<unknown>): Seeding {
  const withRaw = async (fn: (raw: RawSqliteTarget | RawPostgresTarget) => Promise<void>) => {
    await before?.();
    const raw = provider === 'sqlite' ? new RawSqliteTarget(url.slice('file:'.length)) : new RawPostgresTarget(url);
    try {
      await fn(raw);
    } finally {
      await raw.close();
    }
  };
  return {
    seedSessions: (appName, sessions) => withRaw((raw) => raw.seedSessions(appName, sessions)),
    seedEvents: (key, events) => withRaw((raw) => raw.seedEvents(key, events)),
  };
}

/**
 * The door of any adk-js session service (adk-js's own two and Statehouse's
 * drop-in): Session objects held as a Runner holds them, appends through
 * appendEvent on them, pages through listSessions with a limit.
 */
export function adkServiceDoor(
  impl: ImplName,
  provider: ProviderName,
  service: BaseSessionService,
  seeding: Seeding,
  close: () => Promise<void>,
): Door<Session> {
  const read = (key: SessionKey, numRecentEvents?: number) =>
    service.getSession({ ...key, config: numRecentEvents === undefined ? undefined : { numRecentEvents } });
  return {
    impl,
    provider,
    ...seeding,
    create: (key, state) => service.createSession({ ...key, state }),
    async append(_key, session, event) {
      await service.appendEvent({ session, event: adkEvent(event) });
      return session;
    },
    async get(key, numRecentEvents) {
      const session = await read(key, numRecentEvents);
      return session ? { eventCount: session.events.length, state: session.state } : null;
    },
    async load(key) {
      return (await read(key, 1)) ?? null;
    },
    async list(appName, userId) {
      return (await service.listSessions({ appName, userId })).sessions.length;
    },
    async sessionPage(appName, userId, limit) {
      const page = await service.listSessions({ appName, userId, limit, order: 'desc' });
      return { items: page.sessions.length, total: page.totalItems ?? page.sessions.length };
    },
    close,
  };
}
