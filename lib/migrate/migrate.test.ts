// Migrations: applied and recorded as `prisma migrate deploy` would, on a fresh
// SQLite file and a fresh PostgreSQL database; and the committed migrations
// match the schema (the guard against editing models.prisma without a migration).
// PostgreSQL: TEST_DATABASE_URL names a server to create scratch databases on
// (default 127.0.0.1:5432); without one the PostgreSQL tests skip, except in CI.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSchema } from '../../scripts/prisma-schemas.mjs';
import { POSTGRES_ADMIN_URL, postgresAdmin, queryPostgres, testProviders, withDatabase } from '../testing/databases';
import {
  applyMigrations,
  diffMigration,
  isEmptyMigration,
  migrateDatabase,
  migrationsDirectory,
  PROVIDERS,
  readMigrations,
  schemaPath,
  type Provider,
} from './index';

const TABLES = [
  'accounts',
  'api_tokens',
  'app_session_counts',
  'app_state',
  'events',
  'login_sessions',
  'session_state',
  'sessions',
  'state_changes',
  'user_session_counts',
  'user_state',
];
// In CI a missing server fails the run (testProviders throws), not hides it.
const withPostgres = (await testProviders()).includes('postgresql');

/** What `prisma migrate deploy` records: each folder with the sha256 of its migration.sql. */
async function expectedRecords(provider: Provider) {
  const { migrationDirectories } = await readMigrations(provider);
  return migrationDirectories.map(({ path }) => ({
    migration_name: path,
    checksum: createHash('sha256')
      .update(readFileSync(join(migrationsDirectory(provider), path, 'migration.sql')))
      .digest('hex'),
  }));
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
  applied_steps_count: number;
}

function expectRecorded(rows: MigrationRow[], expected: Awaited<ReturnType<typeof expectedRecords>>) {
  expect(rows.map(({ migration_name, checksum }) => ({ migration_name, checksum }))).toEqual(expected);
  for (const row of rows) {
    expect(row.finished_at).not.toBeNull();
    expect(row.rolled_back_at).toBeNull();
    expect(Number(row.applied_steps_count)).toBe(1);
  }
}

describe('the committed migrations', () => {
  it.each(PROVIDERS)('exist for %s', async (provider) => {
    const { lockfile, migrationDirectories } = await readMigrations(provider);
    expect(lockfile.content).toContain(`provider = "${provider}"`);
    expect(migrationDirectories.map(({ path }) => path)).toContainEqual(expect.stringMatching(/^\d{14}_init$/));
  });

  it.each(PROVIDERS)('are built from the current models.prisma (%s schema regenerated)', (provider) => {
    expect(readFileSync(schemaPath(provider), 'utf8')).toBe(renderSchema(provider));
  });

  it('match the SQLite schema: models.prisma changes need `npm run db:migration -- <name>`', async () => {
    const sql = await diffMigration('sqlite');
    expect(isEmptyMigration(sql), sql).toBe(true);
  });

  it.runIf(withPostgres)('match the PostgreSQL schema', async () => {
    const sql = await diffMigration('postgresql', { serverUrl: POSTGRES_ADMIN_URL });
    expect(isEmptyMigration(sql), sql).toBe(true);
  });
});

describe('migrating SQLite', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'statehouse-migrate-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('applies every migration once and records it as prisma migrate deploy does', async () => {
    const url = `file:${join(dir, 'fresh.db')}`;
    const expected = await expectedRecords('sqlite');

    expect(await migrateDatabase(url)).toEqual({ applied: expected.map((row) => row.migration_name) });
    expect(await migrateDatabase(url)).toEqual({ applied: [] });
    expect(await applyMigrations(url)).toEqual({ applied: [] });

    const db = new Database(join(dir, 'fresh.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT * FROM _prisma_migrations ORDER BY migration_name').all() as MigrationRow[];
      expectRecorded(rows, expected);
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
      expect(tables.map((row) => (row as { name: string }).name)).toEqual(expect.arrayContaining([...TABLES, '_prisma_migrations']));
      const keys = db.prepare('SELECT "table", on_delete FROM pragma_foreign_key_list(\'events\')').all();
      expect(keys).toEqual([{ table: 'sessions', on_delete: 'CASCADE' }]);
    } finally {
      db.close();
    }
  });

  it('starts on a migrated file that another process holds open in WAL mode (a second server)', async () => {
    const file = join(dir, 'shared.db');
    await applyMigrations(`file:${file}`);
    const other = new Database(file);
    try {
      other.pragma('journal_mode = WAL');
      other.prepare('SELECT COUNT(*) FROM sessions').get();
      expect(await migrateDatabase(`file:${file}`)).toEqual({ applied: [] });
    } finally {
      other.close();
    }
  });

  it('lets concurrent runs on one file all succeed, applying each migration once', async () => {
    const url = `file:${join(dir, 'concurrent.db')}`;
    const runs = await Promise.all([applyMigrations(url), applyMigrations(url), applyMigrations(url)]);
    expect(runs.flatMap((run) => run.applied)).toEqual((await expectedRecords('sqlite')).map((row) => row.migration_name));
  });
});

describe.runIf(withPostgres)('migrating PostgreSQL', () => {
  const database = `statehouse_migrate_test_${randomUUID().replaceAll('-', '')}`;
  const url = withDatabase(POSTGRES_ADMIN_URL, database);

  beforeAll(async () => {
    await postgresAdmin(`CREATE DATABASE "${database}"`);
  });
  afterAll(async () => {
    await postgresAdmin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  });

  it('applies every migration once and records it as prisma migrate deploy does', async () => {
    const expected = await expectedRecords('postgresql');

    expect(await migrateDatabase(url)).toEqual({ applied: expected.map((row) => row.migration_name) });
    expect(await migrateDatabase(url)).toEqual({ applied: [] });
    expect(await applyMigrations(url)).toEqual({ applied: [] });

    expectRecorded(await queryPostgres<MigrationRow>(url, 'SELECT * FROM _prisma_migrations ORDER BY migration_name'), expected);
    const tables = await queryPostgres<{ table_name: string }>(
      url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(tables.map((row) => row.table_name)).toEqual(expect.arrayContaining([...TABLES, '_prisma_migrations']));
    const cascades = await queryPostgres<{ conname: string }>(
      url,
      "SELECT conname FROM pg_constraint WHERE contype = 'f' AND confdeltype = 'c' ORDER BY conname",
    );
    expect(cascades.map((row) => row.conname)).toEqual([
      'api_tokens_account_id_fkey',
      'events_session_pk_fkey',
      'login_sessions_account_id_fkey',
      'session_state_session_pk_fkey',
    ]);
  });

  it('says clearly when the database does not exist', async () => {
    const missing = withDatabase(POSTGRES_ADMIN_URL, `${database}_missing`);
    await expect(applyMigrations(missing)).rejects.toThrow(/does not exist/);
  });
});
