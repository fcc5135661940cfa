// The header search on an agent's store through the index Statehouse keeps in
// its own database: a value held by one session of many is found once the
// index has it (a bounded scan stops before it), the agent's new and changed
// sessions are found after the follower reads them, a deleted one disappears,
// titles, labels and notes are found, and a restart resumes the fill. Events'
// text is in the index too: the app-wide event search answers from it once
// the first fill is done, and says how far the fill is until then.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database as OwnDatabase } from '../../db';
import type { FindRequest, FindResult } from '../../session-service/search';
import { createMigratedDatabase, type ScratchDatabase } from '../../testing/databases';
import { appendPythonSqliteEvent, insertCustomerSessions, PY_SQLITE_DDL } from '../../testing/adk-fixtures/python-sqlite';
import { SqlNoteStore } from '../notes/sql-notes';
import { openAdkStore, type AdkSessionStore } from '.';
import { StoreSearchIndex } from './search-index-log';
import { StoreSessionLog } from './session-log';

const SESSIONS = 3_000;
const APP = 'support';
const RARE = 2_345;
const STORE = 'agent-under-test';

describe('the search index of an agent’s store (adk-python SQLite)', () => {
  let dir: string;
  let agentPath: string;
  let own: ScratchDatabase;
  let ownDb: OwnDatabase;
  let index: StoreSearchIndex;
  let agent: Database.Database;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'statehouse-search-index-'));
    agentPath = join(dir, 'session.db');
    agent = new Database(agentPath);
    agent.exec(PY_SQLITE_DDL);
    insertCustomerSessions(agent, APP, SESSIONS, RARE);
    // Two events a session: the user's question, and the agent's answer or (every 100th session) an error.
    agent.exec(`INSERT INTO events (id, app_name, user_id, session_id, invocation_id, timestamp, event_data)
      SELECT 'e' || n.k || '-' || s.id, s.app_name, s.user_id, s.id, 'inv-' || s.id, s.update_time + n.k,
        json_object('id', 'e' || n.k || '-' || s.id, 'invocation_id', 'inv-' || s.id, 'author', CASE n.k WHEN 1 THEN 'user' ELSE 'agent' END,
          'timestamp', s.update_time + n.k, 'actions', json_object('state_delta', json_object()),
          'content', json_object('role', 'user', 'parts', json_array(json_object('text',
            CASE WHEN n.k = 1 THEN 'Where is my order ' || s.id WHEN s.id = 'session-00017' THEN 'The Zanzibar shipment is lost' ELSE 'On its way' END))),
          'error_code', CASE WHEN n.k = 2 AND s.id LIKE '%00' THEN 'PAYMENT_DECLINED' END)
      FROM sessions s CROSS JOIN (SELECT 1 AS k UNION ALL SELECT 2) n`);
    own = await createMigratedDatabase('sqlite', 'search-index');
    ownDb = await openDatabase(own.url);
    index = new StoreSearchIndex(ownDb.client, ownDb.provider);
  });

  afterAll(async () => {
    agent.close();
    await ownDb.close();
    await own.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = () =>
    openAdkStore(agentPath, {
      id: STORE,
      searchIndex: index,
      sessionLog: new StoreSessionLog(ownDb.client, ownDb.provider),
      follow: { background: false },
    });

  /** A find whose scan reads one chunk of 100 sessions: what the budget leaves at 100,000 sessions. */
  const findShort = (store: AdkSessionStore, text: string): Promise<FindResult> =>
    (store.find as (request: FindRequest, options: { budgetMs: number; chunk: number }) => Promise<FindResult>)(
      { text, limit: 20 },
      { budgetMs: 0, chunk: 100 },
    );

  const sessionsFound = (result: FindResult) => result.hits.filter((hit) => hit.kind === 'session').map((hit) => hit.sessionId);

  it('resumes a fill after a restart rather than starting again', async () => {
    const first = await open();
    await first.searchFollower?.settle({ steps: 3 });
    const before = first.searchFollower?.status();
    expect(before?.filled).toBe(false);
    expect(before?.indexed).toBeGreaterThan(0);
    await first.close();

    const second = await open();
    try {
      await second.searchFollower?.settle({ steps: 0 });
      expect(second.searchFollower?.status()).toMatchObject({ filled: false, cursor: before?.cursor, indexed: before?.indexed });
      // While the fill runs, the search says so and scans after the cursor.
      const partial = await findShort(second, 'Carol Nguyen');
      expect(partial.coverage?.indexBuilt).toBeGreaterThan(0);
      expect(partial.coverage?.indexBuilt).toBeLessThan(100);
      // Events are searched by the bounded scan until the first fill is done: the store says how far the index is.
      const events = await second.searchEvents?.({ appName: APP, text: 'Zanzibar' });
      expect(events).toEqual({ indexBuilt: partial.coverage?.indexBuilt });
    } finally {
      await second.close();
    }
  });

  it('finds a value one session of many holds once it is indexed, where the bounded scan stops first', async () => {
    const store = await open();
    try {
      await store.searchFollower?.settle({ steps: 0 });
      expect(sessionsFound(await findShort(store, 'Carol Nguyen'))).toEqual([]);
      await store.searchFollower?.settle();
      const found = await findShort(store, 'Carol Nguyen');
      expect(found.coverage).toBeUndefined();
      expect(sessionsFound(found)).toEqual([`session-0${RARE}`]);
      expect(found.hits[0]?.matched).toBe('profile');
    } finally {
      await store.close();
    }
  });

  it('follows the agent’s new and changed sessions, and forgets deleted ones', async () => {
    const store = await open();
    try {
      await store.searchFollower?.settle();
      const now = Date.now() / 1000;
      agent
        .prepare('INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)')
        .run(APP, 'user-new', 'session-new', JSON.stringify({ topic: 'Xylophone delivery' }), now, now);
      agent
        .prepare('UPDATE sessions SET state = ?, update_time = ? WHERE id = ?')
        .run(JSON.stringify({ topic: 'Quokka' }), now, 'session-00007');
      expect(sessionsFound(await findShort(store, 'Xylophone'))).toEqual([]);
      await store.searchFollower?.settle();
      expect(sessionsFound(await findShort(store, 'Xylophone'))).toEqual(['session-new']);
      expect(sessionsFound(await findShort(store, 'Quokka'))).toEqual(['session-00007']);
      expect(sessionsFound(await findShort(store, 'Customer 7'))).not.toContain('session-00007');

      agent.prepare('DELETE FROM sessions WHERE id = ?').run('session-new');
      // Gone from the answer at once (hits are checked against the agent's rows), and from the index after following.
      expect(sessionsFound(await findShort(store, 'Xylophone'))).toEqual([]);
      await store.searchFollower?.settle();
      const docs = await ownDb.client.$queryRaw<{ n: unknown }[]>(
        sql`SELECT COUNT(*) AS n FROM search_docs WHERE store_id = ${STORE} AND session_id = 'session-new'`,
      );
      expect(Number(docs[0]?.n)).toBe(0);
      expect(store.searchFollower?.status()).toMatchObject({ filled: true, indexed: SESSIONS, total: SESSIONS });
    } finally {
      await store.close();
    }
  });

  it('follows more changed sessions than one page at once (an import writes them in the same second)', async () => {
    const store = await open();
    try {
      await store.searchFollower?.settle();
      const now = Date.now() / 1000;
      const insert = agent.prepare(
        'INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)',
      );
      agent.transaction(() => {
        for (let i = 0; i < 1_200; i += 1) insert.run(APP, 'user-import', `imported-${i}`, JSON.stringify({ tag: `Ibex-${i}!` }), now, now);
      })();
      await store.searchFollower?.settle();
      expect(sessionsFound(await findShort(store, 'Ibex-1199!'))).toEqual(['imported-1199']);
      agent.prepare("DELETE FROM sessions WHERE user_id = 'user-import'").run();
      await store.searchFollower?.settle();
      expect(store.searchFollower?.status()).toMatchObject({ indexed: SESSIONS, total: SESSIONS });
    } finally {
      await store.close();
    }
  });

  it('finds the events of any session through the index, and follows the agent’s appends', async () => {
    const store = await open();
    try {
      await store.searchFollower?.settle();
      const found = await store.searchEvents?.({ appName: APP, text: 'zanzibar' });
      expect(found).toMatchObject({
        method: 'index',
        hits: [{ userId: 'user-0001', sessionId: 'session-00017', seq: 2, author: 'agent' }],
      });
      const errors = await store.searchEvents?.({ appName: APP, text: 'payment_declined', limit: 100 });
      expect(errors && 'hits' in errors ? errors.hits.length : -1).toBe(SESSIONS / 100);

      appendPythonSqliteEvent(agentPath, APP, 'user-0001', 'session-00017', {
        id: 'appended',
        invocation_id: 'inv-later',
        author: 'agent',
        timestamp: Date.now() / 1000,
        content: { role: 'model', parts: [{ functionCall: { name: 'track_quetzal_parcel', args: {} } }] },
        actions: { state_delta: {} },
      });
      expect(await store.searchEvents?.({ appName: APP, text: 'quetzal' })).toEqual({ method: 'index', hits: [] });
      await store.searchFollower?.settle();
      expect(await store.searchEvents?.({ appName: APP, text: 'quetzal' })).toMatchObject({
        method: 'index',
        hits: [{ sessionId: 'session-00017', seq: 3, author: 'agent' }],
      });
      // The append indexed the new event only: the session's earlier ones are still found, once each.
      const again = await store.searchEvents?.({ appName: APP, text: 'zanzibar' });
      expect(again && 'hits' in again ? again.hits.map((hit) => hit.seq) : []).toEqual([2]);
    } finally {
      await store.close();
    }
  });

  it('finds titles, labels and notes kept in Statehouse’s database', async () => {
    const store = await open();
    try {
      const ref = { appName: APP, userId: 'user-0001', sessionId: 'session-00012' };
      await store.setSessionMeta?.(ref, { title: 'Escalated Wombat case', labels: ['vip-platypus'] }, { actor: 'test' });
      await new SqlNoteStore(ownDb.client, ownDb.provider).add(
        { storeId: STORE, ...ref },
        { author: 'support', text: 'Called back about the Narwhal' },
        1,
      );
      for (const text of ['Wombat', 'platypus', 'Narwhal']) {
        const result = await findShort(store, text);
        expect(sessionsFound(result), text).toEqual(['session-00012']);
      }
    } finally {
      await store.close();
    }
  });
});
