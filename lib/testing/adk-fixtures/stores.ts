// Opened stores over freshly written fixtures, for the contract and write
// tests: each kind of database the ADK families read, and Statehouse's own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Provider } from '../../db';
import { openAdkStore, type AdkSessionStore } from '../../stores/adk';
import type { EditAudit } from '../../stores/adk/base/audit';
import { createScratchDatabase, createTestDatabase } from '../databases';
import { sqliteFilePath } from '../../db/url';
import { writeAdkJsScenario } from '../../stores/adk/js/fixture';
import { writeRustScenario } from '../../stores/adk/rust/fixture';
import { writeNativeScenario } from './native';
import { writePythonDbStore, type PyDbOptions } from './python-db';
import { writePythonSqliteStore } from './python-sqlite';
import { APP, SESSIONS, type ScenarioSession } from './scenario';
import type { SessionStore } from '../../session-service/store';

export interface FixtureStore<S extends SessionStore = SessionStore> {
  store: S;
  /** Where the agent's database is, for dumps and for ADK's own clients. */
  location: { sqlitePath: string } | { postgresUrl: string };
  /** What to open it with (`npm run open -- <this>`). */
  locator: string;
  close(): Promise<void>;
}

export type AdkFixtureKind =
  | { family: 'py-sqlite'; wal?: boolean }
  | ({ family: 'py-db'; dialect: 'sqlite' | 'postgresql' } & PyDbOptions)
  | { family: 'adk-js'; dialect: 'sqlite' | 'postgresql' }
  | { family: 'adk-rust'; dialect: 'sqlite' | 'postgresql' };

export function fixtureLabel(kind: AdkFixtureKind): string {
  if (kind.family === 'py-sqlite') return `adk-python SqliteSessionService (${kind.wal ? 'WAL' : 'rollback journal'})`;
  if (kind.family === 'adk-js') return `adk-js DatabaseSessionService on ${kind.dialect}`;
  if (kind.family === 'adk-rust') return `adk-rust session service on ${kind.dialect}`;
  return `adk-python DatabaseSessionService v1 on ${kind.dialect} (${kind.clock}${kind.clock === 'local' ? ` UTC+${kind.localOffsetHours ?? 2}` : ''})`;
}

/** Writes the fixture (the scenario by default) and returns where it is, without opening it. */
export async function writeAdkFixture(
  kind: AdkFixtureKind,
  sessions: ScenarioSession[] = SESSIONS,
): Promise<{ location: FixtureStore['location']; locator: string; remove(): Promise<void> }> {
  if (kind.family === 'adk-js' || kind.family === 'adk-rust') return writeJsOrRustFixture(kind, sessions);
  if (kind.family === 'py-sqlite' || kind.dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'statehouse-adk-'));
    const path = join(dir, 'session.db');
    if (kind.family === 'py-sqlite') writePythonSqliteStore(path, APP, sessions, { wal: kind.wal });
    else await writePythonDbStore({ sqlitePath: path }, APP, sessions, kind);
    return { location: { sqlitePath: path }, locator: path, remove: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const scratch = await createScratchDatabase('postgresql', 'adkpy');
  try {
    await writePythonDbStore({ postgresUrl: scratch.url }, APP, sessions, kind);
  } catch (error) {
    await scratch.remove();
    throw error;
  }
  return { location: { postgresUrl: scratch.url }, locator: scratch.url, remove: scratch.remove };
}

/** adk-js's own DatabaseSessionService, or the adk-rust generator, writes the scenario. */
async function writeJsOrRustFixture(
  kind: { family: 'adk-js' | 'adk-rust'; dialect: 'sqlite' | 'postgresql' },
  sessions: ScenarioSession[],
): Promise<{ location: FixtureStore['location']; locator: string; remove(): Promise<void> }> {
  const scratch = await createScratchDatabase(kind.dialect, kind.family === 'adk-js' ? 'adkjs' : 'adkrust');
  try {
    if (kind.family === 'adk-js') await writeAdkJsScenario(scratch.url, APP, sessions);
    else await writeRustScenario(scratch.url, APP, sessions);
  } catch (error) {
    await scratch.remove();
    throw error;
  }
  if (kind.dialect === 'postgresql') return { location: { postgresUrl: scratch.url }, locator: scratch.url, remove: scratch.remove };
  const path = sqliteFilePath(scratch.url);
  return { location: { sqlitePath: path }, locator: path, remove: scratch.remove };
}

export async function openAdkFixture(
  kind: AdkFixtureKind,
  options: { searchCountLimit?: number; audit?: EditAudit; sessions?: ScenarioSession[] } = {},
): Promise<FixtureStore<AdkSessionStore>> {
  const written = await writeAdkFixture(kind, options.sessions);
  try {
    const store = await openAdkStore(written.locator, { searchCountLimit: options.searchCountLimit, audit: options.audit });
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
  const { NativeSessionStore } = await import('../../stores/native');
  const store = new NativeSessionStore(database.db.client, database.db.provider, options);
  await writeNativeScenario(store, APP, SESSIONS);
  return { store, location: { sqlitePath: '' }, locator: database.url, close: () => database.drop() };
}
