// `npm run bench -- --long-reads`: the reads of a 100,000-event adk-python
// SqliteSessionService session that are not one page of it (a list filtered
// by key and by author, a key's history, the user's history, the whole
// session as /api's GET reads it), each right after the agent appends an
// event, with the process's peak RSS and an unrelated request (another
// session's summary, asked every 10 ms) meanwhile. The timeline is built
// first (the first time travel), as a console that has shown the session has.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAdkStore } from '../lib/stores/adk';
import { appendPythonSqliteEvent, longSessionEvent } from '../lib/testing/adk-fixtures';
import { withUnrelatedLoad, writeLongSessionFile } from './time-travel';

export interface LongRead {
  read: string;
  ms: number;
  /** Unrelated requests answered during the read, and the slowest of them. */
  unrelatedAnswers: number;
  unrelatedMaxMs: number;
  peakRssMb: number;
}

export interface LongReadsResult {
  events: number;
  timelineMs: number;
  reads: LongRead[];
}

const ms = (value: number) => Math.round(value * 10) / 10;
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

export async function runLongReads(events: number, log: (line: string) => void): Promise<LongReadsResult> {
  const dir = mkdtempSync(join(tmpdir(), 'statehouse-bench-long-reads-'));
  try {
    log(`long reads: writing a session of ${events} events`);
    const { path, options } = writeLongSessionFile(dir, events);
    const store = await openAdkStore(path);
    try {
      const long = { appName: 'bench', userId: 'u', sessionId: 'long' };
      const other = () => store.getSessionSummary({ appName: 'bench', userId: 'u', sessionId: 'other' });
      log('long reads: building the timeline');
      const timeline = await withUnrelatedLoad(() => store.getStateAsOf(long, events / 2), other);
      const cases: [string, () => Promise<unknown>][] = [
        [
          'events that set one key (every 50th), newest 50',
          () => store.listEvents(long, { touchedKey: 'k2', newestFirst: true, limit: 50 }),
        ],
        ['events of one author (every 2nd), first 50', () => store.listEvents(long, { author: 'model', limit: 50 })],
        ['history of one key, newest 50', () => store.getKeyHistory({ ...long, scope: 'session', key: 'k2', limit: 50 })],
        ['the user’s history (every 10th event), newest 50', () => store.getUserHistory('bench', 'u', { limit: 50 })],
        ['the whole session (/api GET)', () => store.getSession(long)],
      ];
      const reads: LongRead[] = [];
      for (const [index, [read, work]] of cases.entries()) {
        const quiet = { ...longSessionEvent(events + index + 1, options), author: 'tool', actions: { state_delta: {} } };
        appendPythonSqliteEvent(path, 'bench', 'u', 'long', quiet);
        log(`long reads: ${read}`);
        const timed = await withUnrelatedLoad(work, other);
        reads.push({
          read,
          ms: ms(timed.ms),
          unrelatedAnswers: timed.latencies.length,
          unrelatedMaxMs: ms(Math.max(0, ...timed.latencies)),
          peakRssMb: mb(timed.peakRss),
        });
      }
      return { events, timelineMs: ms(timeline.ms), reads };
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatLongReads(result: LongReadsResult): string {
  return [
    `Reads of a ${result.events}-event adk-python SQLite session, each right after an append (timeline built in ${result.timelineMs} ms):`,
    ...result.reads.map(
      (read) =>
        `  ${read.read}: ${read.ms} ms, peak RSS ${read.peakRssMb} MB, ${read.unrelatedAnswers} unrelated answers meanwhile (max ${read.unrelatedMaxMs} ms)`,
    ),
  ].join('\n');
}
