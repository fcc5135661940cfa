// Opened stores over freshly written fixtures, for the contract and write
// tests: each kind of database the ADK families read, and Statehouse's own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Provider } from '../../db';
import { openAdkStore, type AdkSessionStore } from '../../stores/adk';
import type { EditAudit } from '../../stores/adk/base/audit';
import type { SessionLog } from '../../stores/adk/base/session-log';
import { createScratchDatabase, createTestDatabase } from '../databases';
import { createMysqlScratchDatabase } from '../mysql';
import { writeNativeScenario } from './native';
import { fixtureDialect, fixtureWriter, type AdkFixtureKind, type FixtureTarget } from './registry';
import { APP, SESSIONS, type ScenarioSession } from './scenario';
import { writeRedisScenario } from './redis';
import type { SessionStore } from '../../session-service/store';

export interface FixtureStore<S extends SessionStore = SessionStore> {
  store: S;
  /** Where the agent's database is, for dumps and for ADK's own clients. */
  location: FixtureTarget;
  /** What to open it with (`npm run open -- <this>`). */
  locator: string;
  close(): Promise<void>;
}

/** Writes the fixture (the scenario by default) to a new database of its dialect and returns where it is, without opening it. */
export async function writeAdkFixture(
  kind: AdkFixtureKind,
  sessions: ScenarioSession[] = SESSIONS,
): Promise<{ location: FixtureTarget; locator: string; remove(): Promise<void> }> {
  const writer = fixtureWriter(kind);
  if (kind.family === 'redis') {
    // A place of its own (a fresh key prefix, or a claimed empty database), removed key by key.
    const written = await writeRedisScenario(kind.layout, APP, sessions);
    // No SQL location: tests reach the store by its locator (the Redis URL).
    return { location: { sqlitePath: '' }, locator: written.target.redisUrl, remove: written.remove };
  }
  if (fixtureDialect(kind) === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'statehouse-adk-'));
    const remove = async () => rmSync(dir, { recursive: true, force: true });
    const location = { sqlitePath: join(dir, 'session.db') };
    try {
      await writer.write(location, APP, sessions, kind);
    } catch (error) {
      await remove();
      throw error;
    }
    return { location, locator: location.sqlitePath, remove };
  }
  const mysqlServer = fixtureDialect(kind) === 'mysql';
  const label = kind.family.replace('-', '_');
  const scratch = mysqlServer ? await createMysqlScratchDatabase(label) : await createScratchDatabase('postgresql', label);
  const location: FixtureTarget = mysqlServer ? { mysqlUrl: scratch.url } : { postgresUrl: scratch.url };
  try {
    await writer.write(location, APP, sessions, kind);
  } catch (error) {
    await scratch.remove();
    throw error;
  }
  return { location, locator: scratch.url, remove: scratch.remove };
}

export async function openAdkFixture(
  kind: AdkFixtureKind,
  options: { id?: string; searchCountLimit?: number; audit?: EditAudit; sessionLog?: SessionLog; sessions?: ScenarioSession[] } = {},
): Promise<FixtureStore<AdkSessionStore>> {
  const written = await writeAdkFixture(kind, options.sessions);
  try {
    const store = await openAdkStore(written.locator, {
      id: options.id,
      searchCountLimit: options.searchCountLimit,
      audit: options.audit,
      sessionLog: options.sessionLog,
    });
    return {
      store,
      location: written.location,
      locator: written.locator,
      close: async () => {
        await store.close();
        await written.remove();
      },
    };
  } catch (error) {
    await written.remove();
    throw error;
  }
}

export async function openNativeFixture(provider: Provider, options: { searchCountLimit?: number } = {}): Promise<FixtureStore> {
  const database = await createTestDatabase(provider);
  const { createNativeSessionStore } = await import('../../stores/native');
  const store = createNativeSessionStore(database.db.client, database.db.provider, options);
  await writeNativeScenario(store, APP, SESSIONS);
  return { store, location: { sqlitePath: '' }, locator: database.url, close: () => database.drop() };
}
