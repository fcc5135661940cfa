import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database, type Provider } from '../db';
import { migrateDatabase } from '../migrate';
import { PrismaSessionService } from '../session-service';

/** Server used for PostgreSQL tests; each test file creates and drops its own database there. */
export const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  provider: Provider;
  url: string;
  db: Database;
  service: PrismaSessionService;
  drop(): Promise<void>;
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Providers to run database tests against. PostgreSQL is skipped only on a
 * developer machine without a server; in CI its absence fails the run.
 */
export async function testProviders(): Promise<Provider[]> {
  if (await postgresReachable()) return ['sqlite', 'postgresql'];
  if (process.env.CI) throw new Error(`PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}; CI must run its tests.`);
  console.warn(`PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}: its tests are skipped on this machine.`);
  return ['sqlite'];
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database of the given provider. */
export async function createTestDatabase(provider: Provider): Promise<TestDatabase> {
  let url: string;
  let cleanup: () => Promise<void>;
  if (provider === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'statehouse-test-'));
    url = `file:${join(dir, 'test.db')}`;
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const name = `statehouse_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    await adminQuery(`CREATE DATABASE "${name}"`);
    url = withDatabase(POSTGRES_ADMIN_URL, name);
    cleanup = () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
  await migrateDatabase(url);
  const db = await openDatabase(url);
  return {
    provider,
    url,
    db,
    service: new PrismaSessionService(db.client, db.provider),
    async drop() {
      await db.close();
      await cleanup();
    },
  };
}
