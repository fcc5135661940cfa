// npm run loadtest [-- --clients 32 --sessions 8 --duration 10 --db both|sqlite|postgresql --kill]
// N concurrent clients append events over HTTP to a production server of the
// console (its own port, its own fresh database), for a bounded time; then
// every acknowledged write is checked in the database. Exits 1 when a write
// was lost or doubled, a key holds the wrong value, or a storage invariant
// breaks. Needs a production build (made on first use; NEXT_DIST_DIR picks
// its directory) and, for PostgreSQL, the server at TEST_DATABASE_URL
// (default postgresql://postgres@127.0.0.1:5432/postgres).
import { parseArgs } from 'node:util';
import type { Provider } from '../../lib/db';
import { testProviders } from '../../lib/testing/databases';
import { describeSummary, problemsOf, runLoadtest } from './run';
import { ensureBuild } from './server';

const USAGE = 'usage: npm run loadtest -- [--clients N] [--sessions N] [--duration SECONDS] [--db both|sqlite|postgresql] [--kill]';

function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, not "${text}".\n${USAGE}`);
  return value;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      clients: { type: 'string' },
      sessions: { type: 'string' },
      duration: { type: 'string' },
      db: { type: 'string' },
      kill: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const clients = Math.round(positive('clients', values.clients, 32));
  const sessions = values.sessions === undefined ? undefined : Math.round(positive('sessions', values.sessions, 1));
  const durationMs = positive('duration', values.duration, 10) * 1000;
  const wanted = values.db ?? 'both';
  if (!['both', 'sqlite', 'postgresql'].includes(wanted)) throw new Error(`--db must be both, sqlite or postgresql.\n${USAGE}`);
  const available = await testProviders();
  const providers = (wanted === 'both' ? available : [wanted as Provider]).filter((p) => available.includes(p) || wanted === p);

  const distDir = process.env.NEXT_DIST_DIR || '.next';
  ensureBuild(distDir, console.log);
  let failed = false;
  for (const provider of providers) {
    const summary = await runLoadtest({ provider, clients, sessions, durationMs, kill: values.kill, distDir, log: console.log });
    console.log(describeSummary(summary));
    const problems = problemsOf(summary);
    for (const problem of problems) console.log(`  PROBLEM: ${problem}`);
    failed ||= problems.length > 0;
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
