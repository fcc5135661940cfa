import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database, Provider } from '../db';
import { queryPostgres } from '../db/postgres-statement';
import { migrateDatabase } from '../migrate';
import { openServices } from '../services';
import type { NativeSessionStore } from '../stores/native';
import { postgresReachable } from './postgres-reachable';

export { queryPostgres };

/** Server used for PostgreSQL tests; each test file creates and drops its own database there. */
export const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  provider: Provider;
  url: string;
  db: Database;
  service: NativeSessionStore;
  drop(): Promise<void>;
}

/**
 * Providers to run database tests against. PostgreSQL is skipped only on a
 * developer machine without a server; in CI its absence fails the run.
 */
export async function testProviders(): Promise<Provider[]> {
  if (await postgresReachable(POSTGRES_ADMIN_URL)) return ['sqlite', 'postgresql'];
  if (process.env.CI) throw new Error(`PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}; CI must run its tests.`);
  console.warn(`PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}: its tests are skipped on this machine.`);
  return ['sqlite'];
}

/** The URL of database `name` on the server `url` points at. */
export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** One statement on the test server's admin database. */
export async function postgresAdmin(sql: string): Promise<void> {
  await queryPostgres(POSTGRES_ADMIN_URL, sql);
}

/** A database made for one test or run, and how to remove it again. */
export interface ScratchDatabase {
  url: string;
  remove: () => Promise<void>;
}

/**
 * A fresh database with no tables, named after `label`: a SQLite file in a
 * temporary directory of its own, or a database on the PostgreSQL test server.
 */
export async function createScratchDatabase(provider: Provider, label: string): Promise<ScratchDatabase> {
  if (provider === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `statehouse-${label}-`));
    return { url: `file:${join(dir, `${label}.db`)}`, remove: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `statehouse_${label}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await postgresAdmin(`CREATE DATABASE "${name}"`);
  return { url: withDatabase(POSTGRES_ADMIN_URL, name), remove: () => postgresAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** A scratch database with the committed migrations applied; removed again if they fail. */
export async function createMigratedDatabase(provider: Provider, label: string): Promise<ScratchDatabase> {
  const database = await createScratchDatabase(provider, label);
  try {
    await migrateDatabase(database.url);
  } catch (error) {
    await database.remove();
    throw error;
  }
  return database;
}

/** A fresh, migrated database of the given provider, open. */
export async function createTestDatabase(provider: Provider): Promise<TestDatabase> {
  const { url, remove } = await createMigratedDatabase(provider, 'test');
  const { db, store } = await openServices(url, { migrate: false });
  return {
    provider,
    url,
    db,
    service: store,
    async drop() {
      await db.close();
      await remove();
    },
  };
}
