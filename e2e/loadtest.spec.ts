// The load test (npm run loadtest) in CI, short: concurrent clients append
// over HTTP to production servers of this build (each on its own port and
// fresh database, protected mode with an API token), on SQLite and
// PostgreSQL, once plainly and once with the server SIGKILLed halfway and
// restarted. No acknowledged write may be lost or doubled, every key must
// hold its last write, and the storage invariants must hold.
import { expect, test } from '@playwright/test';
import { testProviders } from '../lib/testing/databases';
import { describeSummary, problemsOf, runLoadtest } from '../scripts/loadtest/run';

test.describe.configure({ mode: 'serial' });

const CLIENTS = 16;
const DURATION_MS = 3000;

for (const kill of [false, true]) {
  test(`load${kill ? ' with kill -9 halfway' : ''}: no acknowledged write lost`, async () => {
    test.setTimeout(3 * 60_000);
    for (const provider of await testProviders()) {
      const summary = await runLoadtest({
        provider,
        clients: CLIENTS,
        durationMs: DURATION_MS,
        kill,
        distDir: process.env.NEXT_DIST_DIR || '.next',
        log: (line) => console.log(line),
      });
      console.log(describeSummary(summary));
      expect(problemsOf(summary), describeSummary(summary)).toEqual([]);
      if (kill) expect(summary.failures.length, 'the kill cut some requests off').toBeGreaterThan(0);
    }
  });
}
