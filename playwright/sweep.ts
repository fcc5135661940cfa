// The reaper (as testcontainers' Ryuk is for containers): namespaces a killed
// run left on a deployment are cleared when the next run starts. Every
// namespace is marked with the run that made it (its Playwright runner: host
// and process id); a mark whose runner is gone from this host, or that is
// older than `maxAgeHours` from another host, is swept.
import { hostname } from 'node:os';
import { StatehouseError, type StatehouseClient } from './client.js';
import type { NamespaceMark, TestRun } from './types.js';

export const SWEEP_ACTOR = 'playwright: sweep of a killed run';

/** This process's run: the Playwright runner whose worker this is (the worker's parent process). */
export function currentRun(): TestRun {
  const host = hostname();
  return { id: `${host}:${process.ppid}`, host, pid: process.ppid };
}

/** Whether a process of this id still runs here (EPERM: it does, as another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface SweepOptions {
  /** Marks of other hosts older than this are swept (their runner cannot be asked); default 24. */
  maxAgeHours?: number;
  /** Seconds since the epoch; default now. */
  now?: number;
}

/** A mark whose run is over: this host's runner is gone, or another host's mark is too old. */
export function isLeftover(mark: NamespaceMark, run: TestRun, options: SweepOptions = {}): boolean {
  if (mark.run.id === run.id) return false;
  if (mark.run.host === run.host) return !alive(mark.run.pid);
  const now = options.now ?? Date.now() / 1000;
  return now - mark.time > (options.maxAgeHours ?? 24) * 3600;
}

export interface SweepReport {
  swept: NamespaceMark[];
  /** What could not be swept, and why. */
  failures: string[];
}

/** Clears every leftover namespace (an app whole; a user namespace user by user, then its mark). */
export async function sweepLeftovers(client: StatehouseClient, run: TestRun, options: SweepOptions = {}): Promise<SweepReport> {
  const report: SweepReport = { swept: [], failures: [] };
  for (const mark of await client.listNamespaces()) {
    if (!isLeftover(mark, run, options)) continue;
    const clear = { reason: `left by run ${mark.run.id}, marked by ${mark.actor}`, actor: SWEEP_ACTOR };
    try {
      if (mark.userSuffix === '') {
        await client.clearApp(mark.appName, clear);
      } else {
        const users = (await client.userIds(mark.appName, mark.userSuffix)).filter((id) => id.endsWith(mark.userSuffix));
        for (const userId of users) await client.clearUser(mark.appName, userId, clear);
        await client.releaseNamespace({ appName: mark.appName, userSuffix: mark.userSuffix });
      }
      report.swept.push(mark);
    } catch (error) {
      // Another worker's sweep got there first: the mark is gone.
      if (error instanceof StatehouseError && error.status === 403 && /test kit/.test(error.detail)) continue;
      report.failures.push(`${mark.appName}${mark.userSuffix}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return report;
}
