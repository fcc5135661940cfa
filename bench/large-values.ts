// `npm run bench -- --large-values`: six concurrent first views of one
// native session holding 60 events of 2 MiB each (a 2 MiB text part; every
// tenth event also sets a 2 MiB state value), as the session page reads them
// on the server (lib/queries/session-prefetch.ts: the state, the count, the
// newest page of events with their changes, each large value cut), with an
// unrelated request (another session's summary) asked every 10 ms meanwhile.
// The case that took 8.2 s a view while the unrelated request waited 7.5 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryClient } from '@tanstack/react-query';
import { prefetchSessionPage } from '../lib/queries/session-prefetch';
import { parseSessionUrl } from '../lib/queries/session-url';
import { openServices } from '../lib/services';
import { median } from './stats';

export interface LargeValuesResult {
  events: number;
  eventMiB: number;
  views: number;
  /** Each concurrent view's time, per round. */
  viewMs: number[];
  viewP50Ms: number;
  unrelatedP50Ms: number;
  unrelatedMaxMs: number;
  peakRssMb: number;
}

const MiB = 1024 * 1024;
const EVENTS = 60;
const VIEWS = 6;
const ms = (value: number) => Math.round(value * 10) / 10;

export async function runLargeValues(rounds: number, log: (line: string) => void): Promise<LargeValuesResult> {
  const dir = mkdtempSync(join(tmpdir(), 'statehouse-bench-large-values-'));
  const { store, db } = await openServices(`file:${join(dir, 'statehouse.db')}`);
  try {
    const ref = { appName: 'bench', userId: 'u', sessionId: 'large' };
    const other = { ...ref, sessionId: 'other' };
    log(`large values: writing ${EVENTS} events of 2 MiB`);
    await store.createSession({ ...ref, state: {} });
    await store.createSession({ ...other, state: { small: 1 } });
    for (let n = 1; n <= EVENTS; n += 1) {
      const text = `event ${n} ${'w'.repeat(2 * MiB)}`;
      await store.append(ref, {
        author: 'agent',
        content: { role: 'model', parts: [{ text }] },
        actions: { stateDelta: n % 10 === 0 ? { [`big${n}`]: text } : { counter: n } },
      });
    }
    const viewMs: number[] = [];
    const unrelated: number[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      log(`large values: round ${round}, ${VIEWS} concurrent views`);
      let running = true;
      const load = (async () => {
        while (running) {
          const start = performance.now();
          await store.getSessionSummary(other);
          unrelated.push(performance.now() - start);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })();
      await Promise.all(
        Array.from({ length: VIEWS }, async () => {
          const start = performance.now();
          await prefetchSessionPage(
            new QueryClient(),
            store,
            ref,
            parseSessionUrl(() => null),
          );
          viewMs.push(performance.now() - start);
        }),
      );
      running = false;
      await load;
    }
    return {
      events: EVENTS,
      eventMiB: 2,
      views: VIEWS,
      viewMs: viewMs.map(ms),
      viewP50Ms: ms(median(viewMs)),
      unrelatedP50Ms: ms(median(unrelated)),
      unrelatedMaxMs: ms(Math.max(0, ...unrelated)),
      peakRssMb: Math.round((process.resourceUsage().maxRSS * 1024) / 2 ** 20),
    };
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatLargeValues(result: LargeValuesResult): string {
  return [
    `${result.views} concurrent first views of a native SQLite session of ${result.events} events of ${result.eventMiB} MiB:`,
    `  a view: p50 ${result.viewP50Ms} ms (${result.viewMs.join(', ')})`,
    `  unrelated request meanwhile: p50 ${result.unrelatedP50Ms} ms, max ${result.unrelatedMaxMs} ms`,
    `  peak RSS ${result.peakRssMb} MB`,
  ].join('\n');
}
