// The fixtures and matchers a suite imports instead of @playwright/test's:
//
//   import { test, expect } from 'statehouse/playwright';
//
// Every test gets `statehouse` (its namespace, seed(), clean-up) and
// `statehouseConsole` (page objects over the console), and `expect` knows
// toHaveState, toHaveStateKey, toHaveEvent and toHaveEventCount.
import { basename, relative } from 'node:path';
import { attachSessions } from './attachments.js';
import { StatehouseClient } from './client.js';
import { StatehouseConsole } from './console/console.js';
import { bindClient } from './handles.js';
import { statehouseMatchers } from './matchers.js';
import { uniqueNamespace } from './namespace.js';
import { playwright } from './playwright-test.js';
import { Statehouse, type NamespaceMode } from './statehouse.js';
import { currentRun, sweepLeftovers } from './sweep.js';
import type { SessionRef } from './types.js';

export interface StatehouseTestOptions {
  /** `app` (each test its own app, the default) or `user` (a shared app, each test its own users). */
  statehouseNamespace: NamespaceMode;
  /** In `user` mode the app the tests share (the agent's app name); in `app` mode the prefix of each test's app. */
  statehouseApp: string;
  /** Default STATEHOUSE_URL. */
  statehouseURL: string | undefined;
  /** Default STATEHOUSE_TOKEN. */
  statehouseToken: string | undefined;
  /** Attach each session's JSON and a screenshot of its page when a test fails (default true). */
  statehouseAttachOnFailure: boolean;
}

export interface StatehouseFixtures {
  statehouse: Statehouse;
  statehouseConsole: StatehouseConsole;
}

export interface StatehouseWorkerFixtures {
  /** Sweep namespaces left by killed runs when the run's first worker starts (default true). */
  statehouseSweep: boolean;
  /** Marks from other hosts are swept once older than this many hours (default 24). */
  statehouseSweepAfterHours: number;
  /** Runs the sweep (automatic; nothing to use). */
  statehouseSweeper: void;
}

export const test = playwright.test.extend<StatehouseTestOptions & StatehouseFixtures, StatehouseWorkerFixtures>({
  statehouseSweep: [true, { option: true, scope: 'worker' }],
  statehouseSweepAfterHours: [24, { option: true, scope: 'worker' }],
  statehouseSweeper: [
    async ({ statehouseSweep, statehouseSweepAfterHours }, use, workerInfo) => {
      // One sweep per run (and again after a worker restart), by the first worker; STATEHOUSE_URL and STATEHOUSE_TOKEN name the server.
      if (statehouseSweep && workerInfo.parallelIndex === 0 && process.env.STATEHOUSE_URL) {
        const report = await sweepLeftovers(new StatehouseClient(), currentRun(), { maxAgeHours: statehouseSweepAfterHours });
        for (const failure of report.failures) console.warn(`statehouse sweep: ${failure}`);
      }
      await use();
    },
    { scope: 'worker', auto: true },
  ],

  statehouseNamespace: ['app', { option: true }],
  statehouseApp: ['pw', { option: true }],
  statehouseURL: [undefined, { option: true }],
  statehouseToken: [undefined, { option: true }],
  statehouseAttachOnFailure: [true, { option: true }],

  statehouse: async (
    { statehouseNamespace, statehouseApp, statehouseURL, statehouseToken, statehouseAttachOnFailure, browser },
    use,
    testInfo,
  ) => {
    const client = new StatehouseClient({ baseURL: statehouseURL, token: statehouseToken });
    const mode = statehouseNamespace;
    const statehouse = new Statehouse({
      client,
      mode,
      namespace: uniqueNamespace(mode === 'app' ? statehouseApp : 'pw', testInfo.parallelIndex),
      sharedApp: mode === 'user' ? statehouseApp : undefined,
      // The spec file as the project names it, then the describe blocks and the title.
      titlePath: [relative(testInfo.project.testDir, testInfo.file) || basename(testInfo.file), ...testInfo.titlePath.slice(1)],
      run: currentRun(),
    });
    await statehouse.open();
    await use(statehouse);
    try {
      if (statehouseAttachOnFailure && testInfo.status !== testInfo.expectedStatus) {
        await attachSessions(statehouse.known, client, testInfo, browser);
      }
    } finally {
      await statehouse.cleanUp();
      for (const note of statehouse.cleanUpNotes) testInfo.annotations.push({ type: 'statehouse clean-up', description: note });
    }
  },

  statehouseConsole: async ({ page, statehouse }, use) => {
    await use(new StatehouseConsole(page, statehouse.client));
  },
});

export const expect = playwright.expect.extend(statehouseMatchers);

/** A handle on a session for the matchers, read through this client (e.g. a token other than STATEHOUSE_TOKEN). */
export function sessionOn<T extends SessionRef>(client: StatehouseClient, ref: T): T {
  return bindClient({ ...ref }, client);
}
