// The end-to-end database: a SQLite file of its own per `playwright test`
// run, so the tests never see or touch the demo database and never inherit
// data from an earlier run.
import { readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DATABASE_ENV = 'STATEHOUSE_E2E_DATABASE_URL';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = join(projectRoot, '.data');
const PREFIX = 'e2e-';

/**
 * Called by playwright.config.ts. The runner loads the config first and its
 * workers inherit its environment (and load the config again), so the name
 * chosen once here is the one the server, the global setup and every worker use.
 */
export function chooseE2eDatabase(): string {
  process.env[E2E_DATABASE_ENV] ??= `file:${join(dataDir, `${PREFIX}${Date.now()}-${process.pid}.db`)}`;
  return process.env[E2E_DATABASE_ENV];
}

/** The database this run's server uses; only set under `playwright test`. */
export function e2eDatabaseUrl(): string {
  const url = process.env[E2E_DATABASE_ENV];
  if (!url) {
    throw new Error(`${E2E_DATABASE_ENV} is not set: run the end-to-end tests with \`npx playwright test\`.`);
  }
  return url;
}

/** Whether the run that named a database file (`e2e-<time>-<pid>.db...`) is still going. */
function ownerIsRunning(name: string): boolean {
  const pid = Number(/^e2e-\d+-(\d+)\.db/.exec(name)?.[1]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Deletes the files of earlier runs' databases (with their -wal and -shm),
 * never this run's, nor those of runs still going in the same checkout
 * (parallel runs on other ports, see NEXT_DIST_DIR / E2E_PORT).
 */
export function removeStaleE2eDatabases(): string[] {
  const current = basename(e2eDatabaseUrl().slice('file:'.length));
  let entries: string[] = [];
  try {
    entries = readdirSync(dataDir);
  } catch {
    return [];
  }
  const stale = entries.filter((name) => name.startsWith(PREFIX) && !name.startsWith(current) && !ownerIsRunning(name));
  for (const name of stale) rmSync(join(dataDir, name), { force: true });
  return stale;
}
