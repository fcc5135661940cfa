// npm run db:migration -- <name>: writes prisma/<provider>/schema.prisma from
// prisma/models.prisma, then for each provider the SQL that takes its committed
// migrations to that schema, as prisma/<provider>/migrations/<UTC timestamp>_<name>/migration.sql
// (the folder `prisma migrate dev --name <name>` would create). Writes nothing
// when the schema and the migrations agree.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { diffMigration, isEmptyMigration, migrationLockToml, migrationsDirectory, projectRoot, PROVIDERS } from '../lib/migrate/index';
import { root, writeSchemas } from './prisma-schemas.mjs';

// writeSchemas() writes into the tree this script lives in; migrations go to the same tree.
process.env.STATEHOUSE_ROOT = root;

// Letters, digits, '_' and '-' keep the folder name portable and as Prisma would slug it.
const VALID_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,199}$/;

function migrationName(args: string[]): string {
  const name = args[0] === '--name' ? args[1] : args[0];
  if (!name || !VALID_NAME.test(name) || args.length > (args[0] === '--name' ? 2 : 1)) {
    throw new Error(
      'Usage: npm run db:migration -- <name>, where <name> is letters, digits, "_" or "-" (at most 200), e.g. add_session_title.',
    );
  }
  return name;
}

/** YYYYMMDDHHMMSS in UTC, the prefix Prisma gives migration folders. */
function timestamp(now = new Date()): string {
  return now.toISOString().replace(/\D/g, '').slice(0, 14);
}

async function main(): Promise<void> {
  const name = migrationName(process.argv.slice(2));
  writeSchemas();
  // Diff every provider before writing anything, so a failure leaves no half-made migration.
  const diffs = [];
  for (const provider of PROVIDERS) diffs.push({ provider, sql: await diffMigration(provider) });
  const changed = diffs.filter(({ sql }) => !isEmptyMigration(sql));
  if (changed.length === 0) {
    console.log('No changes: the migrations already match prisma/models.prisma; nothing written.');
    return;
  }
  const folder = `${timestamp()}_${name}`;
  for (const { provider, sql } of changed) {
    const baseDir = migrationsDirectory(provider);
    await mkdir(join(baseDir, folder), { recursive: true });
    await writeFile(join(baseDir, folder, 'migration.sql'), sql, { flag: 'wx' });
    const lockPath = join(baseDir, 'migration_lock.toml');
    if (!existsSync(lockPath)) await writeFile(lockPath, migrationLockToml(provider));
    console.log(`Wrote ${relative(projectRoot(), join(baseDir, folder, 'migration.sql'))}`);
  }
  for (const { provider } of diffs.filter((diff) => !changed.includes(diff))) console.log(`${provider}: no changes`);
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
