// The load test's own database: a fresh SQLite file or PostgreSQL database,
// migrated, dropped at the end. Unlike lib/testing's test databases it is not
// kept open: the server under test opens it itself (and on SQLite its first
// start migrates the file, which needs it to itself).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database, type Provider } from '../../lib/db';
import { migrateDatabase } from '../../lib/migrate';
import { POSTGRES_ADMIN_URL } from '../../lib/testing/databases';

export interface LoadtestDatabase {
  provider: Provider;
  url: string;
  /** Opens a connection; the caller closes it. */
  open(): Promise<Database>;
  drop(): Promise<void>;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createLoadtestDatabase(provider: Provider): Promise<LoadtestDatabase> {
  let url: string;
  let remove: () => Promise<void>;
  if (provider === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'statehouse-loadtest-'));
    url = `file:${join(dir, 'loadtest.db')}`;
    remove = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const name = `statehouse_loadtest_${process.pid}_${Date.now()}`;
    await admin(`CREATE DATABASE "${name}"`);
    const parsed = new URL(POSTGRES_ADMIN_URL);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
    remove = () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
  try {
    await migrateDatabase(url);
  } catch (error) {
    await remove();
    throw error;
  }
  return { provider, url, open: () => openDatabase(url), drop: remove };
}
