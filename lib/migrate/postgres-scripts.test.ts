// A PostgreSQL migration goes to the server as one script (engine.ts), as
// Prisma's native engine sends it: function bodies with ";" in them apply,
// and a script that fails midway leaves nothing behind.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_ADMIN_URL, postgresAdmin, queryPostgres, testProviders, withDatabase } from '../testing/databases';
import { loadSchemaEngine } from './engine';
import { applyMigrations, migrationLockToml } from './index';

const withPostgres = (await testProviders()).includes('postgresql');

/** A project root with these migrations only. */
function rootWith(migrations: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'statehouse-pg-scripts-'));
  const dir = join(root, 'prisma', 'postgresql', 'migrations');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'migration_lock.toml'), migrationLockToml('postgresql'));
  writeFileSync(join(root, 'prisma', 'postgresql', 'schema.prisma'), 'datasource db {\n  provider = "postgresql"\n}\n');
  for (const [name, script] of Object.entries(migrations)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'migration.sql'), script);
  }
  return root;
}

describe.runIf(withPostgres)('PostgreSQL migration scripts', () => {
  const database = `statehouse_scripts_test_${randomUUID().replaceAll('-', '')}`;
  const url = withDatabase(POSTGRES_ADMIN_URL, database);
  const roots: string[] = [];
  const previousRoot = process.env.STATEHOUSE_ROOT;

  beforeAll(async () => {
    // Loaded from the real root (it finds the .wasm there) before the tests point the root elsewhere.
    await loadSchemaEngine();
    await postgresAdmin(`CREATE DATABASE "${database}"`);
  });
  afterAll(async () => {
    if (previousRoot === undefined) delete process.env.STATEHOUSE_ROOT;
    else process.env.STATEHOUSE_ROOT = previousRoot;
    for (const root of roots) rmSync(root, { recursive: true, force: true });
    await postgresAdmin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  });

  it('apply a function body with semicolons, and apply nothing of a script that fails midway', async () => {
    const first = {
      '20000101000000_function': `CREATE TABLE "counted" ("n" INTEGER NOT NULL);
CREATE FUNCTION "count_one"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "counted" SET "n" = "n" + 1;
    RETURN NULL;
END $$;
INSERT INTO "counted" VALUES (0);
`,
    };
    roots.push(rootWith(first));
    process.env.STATEHOUSE_ROOT = roots.at(-1);
    expect(await applyMigrations(url)).toEqual({ applied: ['20000101000000_function'] });
    expect(await queryPostgres(url, `SELECT proname FROM pg_proc WHERE proname = 'count_one'`)).toHaveLength(1);

    roots.push(
      rootWith({
        ...first,
        '20000102000000_fails': `CREATE TABLE "half" ("x" INTEGER);
INSERT INTO "counted" VALUES (1);
SELECT 1 / 0;
`,
      }),
    );
    process.env.STATEHOUSE_ROOT = roots.at(-1);
    await expect(applyMigrations(url)).rejects.toThrow(/division by zero/);
    expect(await queryPostgres(url, `SELECT tablename FROM pg_tables WHERE tablename = 'half'`)).toEqual([]);
    expect(await queryPostgres(url, 'SELECT "n" FROM "counted"')).toEqual([{ n: 0 }]);
  });
});
