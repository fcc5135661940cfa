// An agent's SQLite tables made WITHOUT ROWID have no rowid for the search
// follower to walk by: it follows them by their update times instead, as on
// PostgreSQL, and the index still fills and follows.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSearchScratch } from '../../testing/use-search-scratch';
import { insertCustomerSessions, PY_SQLITE_DDL } from '../../testing/adk-fixtures/python-sqlite';
import { openAdkStore } from '.';
import { StoreSearchIndex } from './search-index-log';

describe('the search index of an agent’s SQLite store whose tables have no rowid', () => {
  const scratch = useSearchScratch('without-rowid');
  let agentPath: string;

  beforeAll(async () => {
    agentPath = join(scratch.dir, 'session.db');
    const agent = new Database(agentPath);
    agent.exec(PY_SQLITE_DDL.replace(/\n\);/g, '\n) WITHOUT ROWID;'));
    insertCustomerSessions(agent, 'support', 50, 7);
    agent.close();
  });

  it('fills and follows by update time', async () => {
    const store = await openAdkStore(agentPath, {
      id: 'no-rowid',
      searchIndex: new StoreSearchIndex(scratch.ownDb.client, scratch.ownDb.provider),
      follow: { background: false },
    });
    try {
      await store.searchFollower?.settle();
      expect(store.searchFollower?.status()).toMatchObject({ filled: true, indexed: 50, total: 50 });
      const agent = new Database(agentPath);
      agent
        .prepare('UPDATE sessions SET state = ?, update_time = ? WHERE id = ?')
        .run(JSON.stringify({ topic: 'Quokka' }), 1790000100, 'session-00003');
      agent.close();
      await store.searchFollower?.settle();
      const found = await store.find({ text: 'Quokka', limit: 20 });
      expect(found.hits.map((hit) => hit.sessionId)).toEqual(['session-00003']);
    } finally {
      await store.close();
    }
  });
});
