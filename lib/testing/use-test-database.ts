// Vitest hooks around createTestDatabase; apart from databases.ts because
// the load test script imports that one and must not pull in vitest.
import { afterAll, beforeAll } from 'vitest';
import { setServicesForTests } from '../services';
import { SqlSavedViewStore } from '../stores/saved-views/sql-saved-views';
import { SqlNoteStore } from '../stores/notes/sql-notes';
import { SqlAuditLog } from '../stores/audit/sql-audit-log';
import type { Provider } from '../db';
import { createTestDatabase, type TestDatabase } from './databases';

export interface UseTestDatabaseOptions {
  /** Route handlers and server actions use this database's service while the block runs. */
  serveRoutes?: boolean;
}

/**
 * A fresh database for the calling describe block: created before its first
 * test, dropped after its last (after the block's own afterAll hooks, which
 * run in reverse order). The object returned reads through to it, so a block
 * can hold it from the start and use it in its tests and hooks.
 */
export function useTestDatabase(provider: Provider, options: UseTestDatabaseOptions = {}): TestDatabase {
  let current: TestDatabase | undefined;
  beforeAll(async () => {
    current = await createTestDatabase(provider);
    if (options.serveRoutes)
      setServicesForTests({
        store: current.service,
        notes: new SqlNoteStore(current.db.client, current.db.provider),
        savedViews: new SqlSavedViewStore(current.db.client),
        auditLog: new SqlAuditLog(current.db.client),
      });
  });
  afterAll(async () => {
    if (options.serveRoutes) setServicesForTests({});
    await current?.drop();
    current = undefined;
  });
  const open = (): TestDatabase => {
    if (!current) throw new Error('The test database exists only while its describe block runs.');
    return current;
  };
  return {
    provider,
    get url() {
      return open().url;
    },
    get db() {
      return open().db;
    },
    get service() {
      return open().service;
    },
    drop: () => open().drop(),
  };
}
