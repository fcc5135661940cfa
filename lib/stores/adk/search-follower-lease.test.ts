// Two Statehouse servers on one Statehouse database, serving the same agent
// store: one follower at a time fills and follows its search index (the one
// holding the lease), the other answers from what that one wrote, takes over
// when it stops, and a follower whose lease was taken over writes nothing and
// goes on answering from the index.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../db';
import { openAgentServices, type AgentServices } from '../../services';
import { createMigratedDatabase, testProviders, type ScratchDatabase } from '../../testing/databases';
import { insertCustomerSessions, PY_SQLITE_DDL } from '../../testing/adk-fixtures/python-sqlite';
import { LeaseLostError } from '../leases';
import type { IndexStatus } from './base/search-index';
import { StoreSearchIndex } from './search-index-log';

const SESSIONS = 1_000;
const APP = 'support';
const STORE = 'shared-agent';
// Large fill steps: the test is about who writes, not how finely the fill yields. A long lease: the takeover
// tested with two servers is the one when the holder stops (it gives the lease up); expiry is tested on its own.
const FOLLOW = { pollMs: 50, stepMs: 200, leaseMs: 10_000 };

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(await testProviders())('the search follower of a store two servers serve (Statehouse on %s)', (provider) => {
  let dir: string;
  let agentPath: string;
  let agent: Database.Database;
  let own: ScratchDatabase;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'statehouse-search-lease-'));
    agentPath = join(dir, 'session.db');
    agent = new Database(agentPath);
    agent.exec(PY_SQLITE_DDL);
    insertCustomerSessions(agent, APP, SESSIONS, 345);
    own = await createMigratedDatabase(provider, 'search-lease');
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    agent.close();
    await own.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  const serve = () => openAgentServices(own.url, [{ id: STORE, location: agentPath }], { migrate: false, follow: FOLLOW });
  const follower = (services: AgentServices) => services.store.searchFollower;
  const findSessions = async (services: AgentServices, text: string) => {
    const result = await services.store.find({ text, limit: 20 });
    return { coverage: result.coverage, sessions: result.hits.filter((hit) => hit.kind === 'session').map((hit) => hit.sessionId) };
  };

  it('fills and follows from one server at a time, and the other takes over when it stops', async () => {
    const writes = vi.spyOn(StoreSearchIndex.prototype, 'write');
    const resets = vi.spyOn(StoreSearchIndex.prototype, 'reset');
    const progressOf = StoreSearchIndex.prototype.progress;
    const progress = vi.spyOn(StoreSearchIndex.prototype, 'progress');
    const servers = [await serve(), await serve()];
    const [first, second] = servers as [AgentServices, AgentServices];
    try {
      let bothLed = false;
      await waitFor('both servers to see the index filled', () => {
        if (follower(first)?.isLeading?.() && follower(second)?.isLeading?.()) bothLed = true;
        return Boolean(follower(first)?.status()?.filled && follower(second)?.status()?.filled);
      });
      expect(bothLed).toBe(false);
      const writers = new Set([...writes.mock.contexts, ...resets.mock.contexts]);
      expect(writers.size).toBe(1);
      const leader = servers.find((services) => follower(services)?.isLeading()) as AgentServices;
      const other = leader === first ? second : first;
      expect(follower(other)?.isLeading()).toBe(false);

      // The server that does not follow answers from the index the other filled.
      const carol = await findSessions(other, 'Carol Nguyen');
      expect(carol).toEqual({ coverage: undefined, sessions: ['session-00345'] });

      // While the other server takes over, find keeps answering from the index the leader filled: the progress it
      // observed stands until it has read the index's own (open() reads it first), never a scan of the agent's store.
      const statusesWhileLeading: (IndexStatus | null | undefined)[] = [];
      progress.mockImplementation(function (this: StoreSearchIndex, storeId: string) {
        if (follower(other)?.isLeading()) statusesWhileLeading.push(follower(other)?.status());
        return progressOf.call(this, storeId);
      });
      await leader.close();
      writes.mockClear();
      const now = Date.now() / 1000;
      agent
        .prepare('INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)')
        .run(APP, 'user-new', 'session-new', JSON.stringify({ topic: 'Xylophone delivery' }), now, now);
      await waitFor('the other server to follow the new session', async () => (await findSessions(other, 'Xylophone')).sessions.length > 0);
      expect(follower(other)?.isLeading()).toBe(true);
      expect(statusesWhileLeading.length).toBeGreaterThan(0);
      expect(statusesWhileLeading.every((status) => status?.filled === true)).toBe(true);
      expect(new Set(writes.mock.contexts).size).toBe(1);
      const ownDb = other.db.client;
      const indexed = await ownDb.$queryRaw<{ n: unknown }[]>(
        sql`SELECT COUNT(*) AS n FROM store_search_sessions WHERE store_id = ${STORE}`,
      );
      expect(Number(indexed[0]?.n)).toBe(SESSIONS + 1);
    } finally {
      await Promise.all(servers.map((services) => services.close().catch(() => undefined)));
      writes.mockRestore();
      resets.mockRestore();
      progress.mockRestore();
    }
  });

  it('a follower whose lease another server took goes on answering from the index, and writes nothing', async () => {
    const services = await serve();
    try {
      await waitFor('the index filled', () => Boolean(follower(services)?.isLeading() && follower(services)?.status()?.filled));
      // Another server holds the lease now (as after this one stalled past it): the next write is refused.
      await services.db.client.$executeRaw(sql`UPDATE leases SET holder = ${'another-server'}, expire_time = expire_time + 3600`);
      const indexedBefore = follower(services)?.status()?.indexed;
      const now = Date.now() / 1000;
      agent
        .prepare('INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)')
        .run(APP, 'user-late', 'session-late', JSON.stringify({ topic: 'Zeppelin tour' }), now, now);
      const statuses: (IndexStatus | null | undefined)[] = [];
      await waitFor('the follower to find its lease gone', () => {
        statuses.push(follower(services)?.status());
        return follower(services)?.isLeading() === false;
      });
      for (let i = 0; i < 40; i++) {
        statuses.push(follower(services)?.status());
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(statuses.every((status) => status?.filled === true)).toBe(true);
      expect((await findSessions(services, 'Zeppelin')).sessions).toEqual([]);
      expect(follower(services)?.status()?.indexed).toBe(indexedBefore);
    } finally {
      await services.close();
    }
  });

  it('passes the lease on only once it expires, and refuses the old holder’s writes after that', async () => {
    const db = await openDatabase(own.url);
    try {
      const index = new StoreSearchIndex(db.client, db.provider);
      const storeId = 'lease-only';
      const stalled = { holder: 'server-a', ms: 400 };
      const taker = { holder: 'server-b', ms: 400 };
      expect(await index.claim(storeId, stalled)).toBe(true);
      expect(await index.claim(storeId, taker)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await index.claim(storeId, taker)).toBe(true);
      const progress = { source: 'test', cursor: null, filled: true, watermark: 0, eventsAfter: null };
      const session = {
        key: [APP, 'u', 's'] as [string, string, string],
        marker: 'm',
        values: [{ key: 'k', body: '"Quokka"' }],
        events: { from: 0, count: 0, docs: [] },
      };
      await expect(index.write(storeId, { upsert: [session], progress }, stalled)).rejects.toBeInstanceOf(LeaseLostError);
      expect(await index.count(storeId)).toBe(0);
      await index.write(storeId, { upsert: [session], progress }, taker);
      expect(await index.count(storeId)).toBe(1);
      expect(await index.claim(storeId, stalled)).toBe(false);
    } finally {
      await db.close();
    }
  });
});
