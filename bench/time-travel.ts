// `npm run bench -- --time-travel`: time travel to the middle of a
// 100,000-event adk-python SqliteSessionService session right after the
// agent appends an event (the case that took 6-20 s and stalled every other
// request), with the server's peak RSS and an unrelated request's latency
// (another session's summary, asked every 10 ms) while each time travel runs.
// SQLite: its driver is synchronous, so anything long would block the process.
// The checkpoints go to a Statehouse SQLite database of the run's own, as a
// served console keeps them; the case then opens the store again (a restart)
// and times the first time travel of the new process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../lib/db';
import { migrateDatabase } from '../lib/migrate';
import { TIMELINE_PAGE_SIZE } from '../lib/queries/session';
import type { SessionRef } from '../lib/session-service/store';
import { openAdkStore, type AdkSessionStore } from '../lib/stores/adk';
import { CHECKPOINT_EVERY } from '../lib/stores/adk/base/timeline';
import { TimelineCheckpointLog } from '../lib/stores/adk/checkpoint-log';
import {
  appendPythonSqliteEvent,
  longSessionEvent,
  writeLongPythonSqliteSession,
  type LongSessionOptions,
} from '../lib/testing/adk-fixtures';
import { median, percentile } from './stats';

export interface TimeTravelResult {
  events: number;
  /** The first time travel: the timeline built from nothing. */
  coldMs: number;
  coldUnrelatedMaxMs: number;
  /** The first time travel after the store is opened again, its checkpoints read back from Statehouse's database. */
  restartMs: number;
  restartUnrelatedMaxMs: number;
  /** Each round: one agent append, then time travel to the middle. */
  afterAppendMs: number[];
  afterAppendP50Ms: number;
  /** Unrelated requests' latency during the rounds' time travels. */
  unrelatedP50Ms: number;
  unrelatedP99Ms: number;
  unrelatedMaxMs: number;
  /** The session page's reads right after an append (state with provenance, the event count, the newest page of events with their changes). */
  pageReadsMs: number[];
  pageReadsP50Ms: number;
  pageUnrelatedMaxMs: number;
  /** The process's resident set: before the store was opened, and its peak over the whole case (getrusage). */
  rssBeforeMb: number;
  peakRssMb: number;
}

const ms = (value: number) => Math.round(value * 10) / 10;

/** Runs `work` while asking for another session's summary every 10 ms; the work's time, each unrelated answer's latency, the RSS seen at the most. */
export async function withUnrelatedLoad(
  work: () => Promise<unknown>,
  unrelated: () => Promise<unknown>,
): Promise<{ ms: number; latencies: number[]; peakRss: number }> {
  const latencies: number[] = [];
  let peakRss = process.memoryUsage().rss;
  let running = true;
  const load = (async () => {
    while (running) {
      const start = performance.now();
      await unrelated();
      latencies.push(performance.now() - start);
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const start = performance.now();
  await work();
  const elapsed = performance.now() - start;
  running = false;
  await load;
  return { ms: elapsed, latencies, peakRss: Math.max(peakRss, process.memoryUsage().rss) };
}

/** What the session page reads first (lib/queries/session-prefetch.ts): the tiers with provenance, the count, the newest page with its changes. */
async function sessionPageReads(store: AdkSessionStore, ref: SessionRef): Promise<void> {
  await store.getSessionTiers(ref);
  const { total } = await store.listEvents(ref, { limit: 1 });
  const page = await store.listEvents(ref, { offset: Math.max(0, total - TIMELINE_PAGE_SIZE), limit: TIMELINE_PAGE_SIZE });
  await store.listEventChanges(
    ref,
    page.items.map((item) => item.seq),
  );
}

/** An adk-python SQLite file in `dir` with session `long` of `events` events and session `other` of 3, of app `bench`, user `u`. */
export function writeLongSessionFile(dir: string, events: number): { path: string; options: LongSessionOptions } {
  const path = join(dir, 'session.db');
  const options = { appName: 'bench', userId: 'u', sessionId: 'long', events, start: 1_790_000_000 };
  writeLongPythonSqliteSession(path, options);
  writeLongPythonSqliteSession(path, { ...options, sessionId: 'other', events: 3 });
  return { path, options };
}

export async function runTimeTravel(events: number, rounds: number, log: (line: string) => void): Promise<TimeTravelResult> {
  const dir = mkdtempSync(join(tmpdir(), 'statehouse-bench-time-travel-'));
  try {
    log(`time travel: writing a session of ${events} events`);
    const { path, options } = writeLongSessionFile(dir, events);
    const ownUrl = `file:${join(dir, 'statehouse.db')}`;
    await migrateDatabase(ownUrl);
    const own = await openDatabase(ownUrl);
    const checkpoints = new TimelineCheckpointLog(own.client);
    const rssBefore = process.memoryUsage().rss;
    let store = await openAdkStore(path, { checkpoints });
    try {
      const long = { appName: 'bench', userId: 'u', sessionId: 'long' };
      const other = () => store.getSessionSummary({ appName: 'bench', userId: 'u', sessionId: 'other' });
      // The middle, between two of the timeline's checkpoints: the most events replayed past one.
      const middle = Math.floor(events / 2) + CHECKPOINT_EVERY - 1;
      log('time travel: the first, building the timeline');
      const cold = await withUnrelatedLoad(() => store.getStateAsOf(long, middle), other);
      const afterAppend: number[] = [];
      const unrelated: number[] = [];
      for (let round = 1; round <= rounds; round += 1) {
        appendPythonSqliteEvent(path, 'bench', 'u', 'long', longSessionEvent(events + round, options));
        const timed = await withUnrelatedLoad(() => store.getStateAsOf(long, middle), other);
        afterAppend.push(timed.ms);
        unrelated.push(...timed.latencies);
      }
      log('time travel: the session page’s reads right after an append');
      const pageReads: number[] = [];
      const pageUnrelated: number[] = [];
      for (let round = 1; round <= rounds; round += 1) {
        appendPythonSqliteEvent(path, 'bench', 'u', 'long', longSessionEvent(events + rounds + round, options));
        const timed = await withUnrelatedLoad(() => sessionPageReads(store, long), other);
        pageReads.push(timed.ms);
        pageUnrelated.push(...timed.latencies);
      }
      log('time travel: the first after opening the store again');
      await store.close();
      store = await openAdkStore(path, { checkpoints });
      const restart = await withUnrelatedLoad(() => store.getStateAsOf(long, middle), other);
      return {
        events,
        coldMs: ms(cold.ms),
        coldUnrelatedMaxMs: ms(Math.max(0, ...cold.latencies)),
        restartMs: ms(restart.ms),
        restartUnrelatedMaxMs: ms(Math.max(0, ...restart.latencies)),
        afterAppendMs: afterAppend.map(ms),
        afterAppendP50Ms: ms(median(afterAppend)),
        unrelatedP50Ms: ms(median(unrelated)),
        unrelatedP99Ms: ms(percentile(unrelated, 99)),
        unrelatedMaxMs: ms(Math.max(0, ...unrelated)),
        pageReadsMs: pageReads.map(ms),
        pageReadsP50Ms: ms(median(pageReads)),
        pageUnrelatedMaxMs: ms(Math.max(0, ...pageUnrelated)),
        rssBeforeMb: Math.round(rssBefore / 2 ** 20),
        peakRssMb: Math.round((process.resourceUsage().maxRSS * 1024) / 2 ** 20),
      };
    } finally {
      await store.close();
      await own.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatTimeTravel(result: TimeTravelResult): string {
  return [
    `Time travel to the middle of a ${result.events}-event adk-python SQLite session (SqliteSessionService layout):`,
    `  first (timeline built): ${result.coldMs} ms, unrelated request max ${result.coldUnrelatedMaxMs} ms`,
    `  first after opening the store again (checkpoints read back): ${result.restartMs} ms, unrelated request max ${result.restartUnrelatedMaxMs} ms`,
    `  right after an append: p50 ${result.afterAppendP50Ms} ms (${result.afterAppendMs.join(', ')})`,
    `  unrelated request meanwhile: p50 ${result.unrelatedP50Ms} ms, p99 ${result.unrelatedP99Ms} ms, max ${result.unrelatedMaxMs} ms`,
    `  the session page's reads right after an append: p50 ${result.pageReadsP50Ms} ms (${result.pageReadsMs.join(', ')}), unrelated request max ${result.pageUnrelatedMaxMs} ms`,
    `  RSS before ${result.rssBeforeMb} MB, peak ${result.peakRssMb} MB`,
  ].join('\n');
}
