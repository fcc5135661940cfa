// npm run db:migrate: applies the pending migrations to DATABASE_URL (default:
// the embedded SQLite file) and records them as `prisma migrate deploy` would.
// Run it from the project root.
import { DEFAULT_DATABASE_URL, redactUrl } from '../lib/db';
import { applyMigrations } from '../lib/migrate/index';

const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;

try {
  const { applied } = await applyMigrations(databaseUrl);
  const target = redactUrl(databaseUrl);
  if (applied.length === 0) console.log(`${target} is up to date; no migration applied.`);
  else console.log(`Applied to ${target}:\n${applied.map((name) => `  ${name}`).join('\n')}`);
} catch (error) {
  // The URL may hide anywhere in a driver's message; redact the whole text.
  console.error(redactUrl(error instanceof Error ? error.message : String(error)));
  process.exitCode = 1;
}
