// npm run demo: migrate the database (DATABASE_URL, default the embedded
// SQLite file), seed the demo data, then serve the console on
// http://localhost:3000 (PORT to change it).
//
// The console runs under `next dev`, not `next build && next start`: a
// production build takes a minute or two before the first page, while the dev
// server is up in seconds and compiles each page on first visit, which is
// what someone trying the project wants (and code edits show up live). The
// end-to-end tests use a production build instead (playwright.config.ts).
import { databaseUrl } from '../lib/config';
import { redactUrl } from '../lib/db';
import { migrateDatabase } from '../lib/migrate/index';
import { describeSeed, seedDatabase } from '../prisma/seed';
import { DEFAULT_HOST, startNext } from './next-server';

const url = databaseUrl();
const port = process.env.PORT || '3000';

try {
  console.log(`Database: ${redactUrl(url)}`);
  const { applied } = await migrateDatabase(url);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Migrations: up to date.');
  console.log(describeSeed(await seedDatabase(url)));
} catch (error) {
  console.error(redactUrl(error instanceof Error ? error.message : String(error)));
  process.exit(1);
}

const host = process.env.HOST?.trim() || DEFAULT_HOST;
console.log(`\nStarting the console on http://${host}:${port} (Ctrl-C to stop)`);
startNext('dev', { host, port });
