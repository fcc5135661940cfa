// adk-js's SQLite sessions table has the primary key (id, app_name, user_id):
// no index serves the order (app, user, id), and a fill read in that order
// sorts the whole table each batch, one long synchronous statement at
// 100,000 sessions. On SQLite the fill reads in rowid order instead, and a
// find while it runs searches the index up to its cursor and scans after it
// in that same order, so no session falls between the two.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adkJsService } from '../../testing/adk-fixtures/adk-js';
import { useSearchScratch } from '../../testing/use-search-scratch';
import { openAdkStore, type AdkSessionStore } from '.';
import { StoreSearchIndex } from './search-index-log';
import { StoreSessionLog } from './session-log';

const SESSIONS = 300;

/** The statements prepared on the file at `path` while `work` runs. */
async function statementsOn(path: string, work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    if (this.name === path) seen.push(sql);
    return prepare.call(this, sql);
  } as typeof prepare;
  try {
    await work();
  } finally {
    Database.prototype.prepare = prepare;
  }
  return seen;
}

describe('the search index of an adk-js SQLite store, while it fills', () => {
  const scratch = useSearchScratch('fill-order');
  let path: string;
  let store: AdkSessionStore;

  beforeAll(async () => {
    path = join(scratch.dir, 'adk.db');
    const service = await adkJsService(`file:${path}`);
    try {
      // Written in the reverse of key order: the first written has the last key.
      for (let i = 0; i < SESSIONS; i += 1) {
        const note = i === 0 ? 'a Narwhal plush' : i === SESSIONS - 1 ? 'an Okapi poster' : 'nothing special';
        await service.createSession({ appName: 'shop', userId: 'u', sessionId: `s-${String(999 - i).padStart(4, '0')}`, state: { note } });
      }
    } finally {
      await service.close();
    }
    store = await openAdkStore(`file:${path}`, {
      id: 'adk-js-fill-order',
      searchIndex: new StoreSearchIndex(scratch.ownDb.client, scratch.ownDb.provider),
      sessionLog: new StoreSessionLog(scratch.ownDb.client, scratch.ownDb.provider),
      follow: { background: false },
    });
  });

  afterAll(async () => {
    await store?.close();
  });

  it('reads the sessions without sorting the table, and finds a session before and after its cursor', async () => {
    const found: Record<string, unknown> = {};
    const statements = await statementsOn(path, async () => {
      await store.searchFollower?.settle({ steps: 1 });
      for (const text of ['narwhal', 'okapi']) {
        const result = await store.find({ text, limit: 20 });
        found[text] = result.hits.map((hit) => hit.sessionId);
      }
    });
    const status = store.searchFollower?.status();
    expect(status?.filled).toBe(false);
    expect(status?.cursor).not.toBeNull();
    // The first session written is the first in rowid order and the last in key order; the last written, the other way.
    expect(found).toEqual({ narwhal: ['s-0999'], okapi: ['s-0700'] });

    const agent = new Database(path, { readonly: true });
    try {
      const sorted = statements
        .filter((sql) => /\bsessions\b/.test(sql) && /ORDER BY/i.test(sql))
        .filter((sql) => {
          const params = (sql.match(/\?/g) ?? []).map(() => null);
          const plan = agent.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
          return plan.some((step) => step.detail.includes('USE TEMP B-TREE FOR ORDER BY'));
        });
      expect(statements.some((sql) => /\bsessions\b/.test(sql))).toBe(true);
      expect(sorted).toEqual([]);
    } finally {
      agent.close();
    }
  });

  it('starts a fill kept in key order (by an earlier version) again from the first session, in rowid order', async () => {
    await store.close();
    const ownFile = new Database(scratch.ownUrl.replace(/^file:/, ''));
    try {
      ownFile
        .prepare(`UPDATE store_search_progress SET cursor = ?, filled = 0 WHERE store_id = ?`)
        .run(JSON.stringify(['shop', 'u', 's-0800']), 'adk-js-fill-order');
    } finally {
      ownFile.close();
    }
    store = await openAdkStore(`file:${path}`, {
      id: 'adk-js-fill-order',
      searchIndex: new StoreSearchIndex(scratch.ownDb.client, scratch.ownDb.provider),
      sessionLog: new StoreSessionLog(scratch.ownDb.client, scratch.ownDb.provider),
      follow: { background: false },
    });
    await store.searchFollower?.settle({ steps: 0 });
    expect(store.searchFollower?.status()).toMatchObject({ filled: false, cursor: null });
    await store.searchFollower?.settle({ steps: 1 });
    expect(typeof store.searchFollower?.status()?.cursor).toBe('number');
    await store.searchFollower?.settle();
    expect(store.searchFollower?.status()?.filled).toBe(true);
    const found = await store.find({ text: 'okapi', limit: 20 });
    expect(found.hits.map((hit) => hit.sessionId)).toEqual(['s-0700']);
  });
});
