// npm run demo: migrate the database (DATABASE_URL, default the embedded
// SQLite file), seed the demo data, build the console for production and
// serve it on http://127.0.0.1:3000 (PORT to change it), while the example
// ADK agent writes a new session every half minute (STATEHOUSE_DEMO_AGENT=0
// to keep the data still).
//
// A production build, not `next dev`: the build takes a minute or two (less
// on later runs, from Next's cache), and then every page answers at once,
// where the dev server compiled each page on its first visit (3-5 s each).
// `npm run dev` is there for working on the code.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { databaseUrl } from '../lib/config';
import { redactUrl } from '../lib/db';
import { migrateDatabase } from '../lib/migrate/index';
import { describeSeed, seedDatabase } from '../prisma/seed';
import { startDemoAgent } from './demo-agent';
import { APP_NAME } from '../examples/adk-agent/agent';
import { demoGuideLines, readDemoGuide } from '../lib/data/demo-guide';
import { openServices } from '../lib/services';
import { DEFAULT_HOST, startNext } from './next-server';

const url = databaseUrl();
const port = process.env.PORT || '3000';
const AGENT_EVERY_MS = 30_000;

try {
  console.log(`Database: ${redactUrl(url)}`);
  const { applied } = await migrateDatabase(url);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Migrations: up to date.');
  console.log(describeSeed(await seedDatabase(url)));
} catch (error) {
  console.error(redactUrl(error instanceof Error ? error.message : String(error)));
  process.exit(1);
}

console.log('\nBuilding the console for production (a minute or two the first time)...');
const nextCli = createRequire(import.meta.url).resolve('next/dist/bin/next');
const build = spawnSync(process.execPath, [nextCli, 'build'], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
if (build.status !== 0) {
  console.error('The build failed (see above); nothing was started.');
  process.exit(build.status ?? 1);
}

const host = process.env.HOST?.trim() || DEFAULT_HOST;
const live = process.env.STATEHOUSE_DEMO_AGENT !== '0';
// The console's apps page points newcomers at the app written live (lib/data/demo-guide.ts).
if (live) process.env.STATEHOUSE_DEMO_LIVE_APP = APP_NAME;
console.log(`\nStarting the console on http://${host}:${port} (Ctrl-C to stop)`);
const services = await openServices(url);
try {
  const guide = await readDemoGuide(services.store, live ? APP_NAME : null);
  for (const line of demoGuideLines(guide, `http://${host}:${port}`)) console.log(line);
} finally {
  await services.close();
}
const server = startNext('start', { host, port });

if (live) {
  console.log('The example agent (examples/adk-agent) writes a new session every 30 s; STATEHOUSE_DEMO_AGENT=0 turns it off.');
  const agent = startDemoAgent(url, AGENT_EVERY_MS);
  server.on('exit', () => void agent.stop());
}
