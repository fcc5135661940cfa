// An agent's PostgreSQL server ending the console's connection in the middle
// of a batch (a restart, an operator's pg_terminate_backend): that batch fails
// and says so, nothing else does, and the next batch gets a working connection.
import { afterEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, postgresAdmin, testProviders, type ScratchDatabase } from '../../testing/databases';
import { openAgentDb, type AgentDb } from './agent-db';

const providers = await testProviders();

describe.runIf(providers.includes('postgresql'))('an agent’s PostgreSQL connection ended mid-batch', () => {
  let database: ScratchDatabase | undefined;
  let db: AgentDb | undefined;
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);

  afterEach(async () => {
    process.off('uncaughtException', record);
    await db?.close();
    await database?.remove();
  });

  it('fails that batch only, and the next one runs', async () => {
    database = await createScratchDatabase('postgresql', 'ended');
    db = await openAgentDb(database.url);
    const name = new URL(database.url).pathname.slice(1);
    process.on('uncaughtException', record);

    const batch = db.read(async (q) => {
      await q.all('SELECT 1');
      // Between two statements: no query is running when the server ends the connection.
      await postgresAdmin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return q.all('SELECT 2 AS two');
    });
    await expect(batch).rejects.toThrow();
    expect(await db.read((q) => q.all('SELECT 3 AS three'))).toEqual([{ three: 3 }]);
    expect(uncaught).toEqual([]);
  });
});
