// npm run open -- <agent's session database>: opens the database an ADK
// agent writes (`.adk/session.db`, a `sqlite:///` URL, or postgresql://...),
// says which ADK wrote it and what is in it, and serves the console over it
// with a production server, as `npm start` does (building first when there
// is no build). Several stores: `npm run open -- prod=postgresql://... ./dev.db`
// (the first is served). Statehouse's own tables stay in DATABASE_URL
// (default ./.data/statehouse.db); nothing is written to the agent's database
// by opening or browsing it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { databaseUrl } from '../lib/config';
import { redactUrl } from '../lib/db';
import { migrateDatabase } from '../lib/migrate/index';
import { CannotReadStoreError, isRedisLocation, openAdkStore } from '../lib/stores/adk';
import { agentDialectOf, sqlitePathOf } from '../lib/stores/adk/agent-db';
import { DEFAULT_HOST, startNext } from './next-server';
import { portTakenMessage } from './port-in-use';

const USAGE = 'Usage: npm run open -- [--build] [name=]<path to session.db | sqlite:///path | postgresql://...> ...';

interface Entry {
  id: string | null;
  location: string;
}

function parse(args: string[]): { entries: Entry[]; build: boolean } {
  const build = args.includes('--build');
  const entries = args
    .filter((arg) => arg !== '--build')
    .map((arg): Entry => {
      const named = /^([A-Za-z][\w-]{0,63})=(.+)$/.exec(arg);
      const id = named ? (named[1] ?? null) : null;
      const raw = named ? (named[2] ?? '') : arg;
      // A relative file path is the caller's, not the server's working directory's.
      const location = agentDialectOf(raw) === 'sqlite' && !isRedisLocation(raw) ? resolve(sqlitePathOf(raw)) : raw;
      return { id, location };
    });
  return { entries, build };
}

async function describe(entry: Entry, index: number): Promise<string> {
  const store = await openAdkStore(entry.location, { id: entry.id ?? `store-${index + 1}` });
  try {
    const apps = await store.listApps();
    const sessions = apps.reduce((sum, app) => sum + app.sessionCount, 0);
    const lines = [
      `${store.info.label} (schema ${store.info.version}) at ${store.info.location}`,
      `  ${store.info.description}`,
      `  ${apps.length} app(s), ${sessions} session(s)${apps.length ? `: ${apps.map((app) => `${app.appName} (${app.sessionCount})`).join(', ')}` : ''}`,
      store.info.readOnlyReason
        ? `  Read-only: ${store.info.readOnlyReason}`
        : '  Writes: appends and state edits are written as this ADK writes them.',
    ];
    return lines.join('\n');
  } finally {
    await store.close();
  }
}

const { entries, build } = parse(process.argv.slice(2));
if (entries.length === 0) {
  console.error(USAGE);
  process.exit(2);
}

try {
  for (const [index, entry] of entries.entries()) console.log(await describe(entry, index));
  const own = databaseUrl();
  const { applied } = await migrateDatabase(own);
  console.log(
    `\nStatehouse's own database (accounts, edit audit): ${redactUrl(own)}${applied.length ? ` (applied ${applied.length} migration(s))` : ''}`,
  );
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(error instanceof CannotReadStoreError ? message : `Cannot open it: ${redactUrl(message)}`);
  process.exit(1);
}

const host = process.env.HOST?.trim() || DEFAULT_HOST;
const port = process.env.PORT?.trim() || '3000';
// Before building: a taken port is said in words, not as the server's EADDRINUSE after "Serving it on".
const taken = await portTakenMessage(host, Number(port));
if (taken) {
  console.error(taken);
  process.exit(1);
}

process.env.STATEHOUSE_STORE = entries.map((entry) => (entry.id ? `${entry.id}=${entry.location}` : entry.location)).join(' ');
const distDir = process.env.NEXT_DIST_DIR || '.next';
if (build || !existsSync(join(distDir, 'BUILD_ID'))) {
  console.log('\nBuilding the console (next build; once, or again with --build)...');
  const nextCli = createRequire(import.meta.url).resolve('next/dist/bin/next');
  const result = spawnSync(process.execPath, [nextCli, 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
console.log(`\nServing it on http://${host}:${port} (Ctrl-C to stop)`);
startNext('start', { host, port });
