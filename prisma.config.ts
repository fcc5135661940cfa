// Prisma CLI configuration (`npx prisma migrate status|deploy`, `prisma generate`).
// Prisma fixes the provider per schema file, so the schema and migrations
// folder follow DATABASE_URL's scheme, as lib/db.ts does for the app. Statehouse
// applies migrations itself (npm run db:migrate, lib/migrate), recording them
// in _prisma_migrations as `prisma migrate deploy` does, so both agree.
//
// Self-contained on purpose: `prisma generate` loads this file before the
// clients that lib/db.ts imports exist.
import { resolve } from 'node:path';
import { defineConfig } from 'prisma/config';

/** Same default as DEFAULT_DATABASE_URL in lib/db.ts. */
const databaseUrl = process.env.DATABASE_URL || 'file:./.data/statehouse.db';
const provider = databaseUrl.startsWith('file:') ? 'sqlite' : 'postgresql';

/** lib/db.ts resolves a relative SQLite path against the working directory; say so explicitly. */
function absoluteSqliteUrl(url: string): string {
  const [path = '', query] = url.slice('file:'.length).split(/\?(.*)/s);
  if (path === ':memory:') return url;
  return `file:${resolve(path)}${query ? `?${query}` : ''}`;
}

export default defineConfig({
  schema: `prisma/${provider}/schema.prisma`,
  migrations: { path: `prisma/${provider}/migrations` },
  datasource: { url: provider === 'sqlite' ? absoluteSqliteUrl(databaseUrl) : databaseUrl },
});
