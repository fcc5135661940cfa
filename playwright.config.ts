// End-to-end tests: a production build of the console (`next build`, then
// `next start`) on its own port and its own fresh SQLite database per run
// (e2e/support/database.ts), driven by the Chromium e2e/support/browser.ts finds.
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/support/browser';
import { chooseE2eDatabase, projectRoot } from './e2e/support/database';
import { e2ePort, e2eUrl } from './e2e/support/ports';

const port = e2ePort('console');
const baseURL = e2eUrl('console');
// A second server on the same build and database, in protected mode, for the sign-in and role specs.
const protectedPort = e2ePort('protected console');
process.env.E2E_PROTECTED_URL = e2eUrl('protected console');
// The statehouse/playwright kit's suite and the example agent's suite reach the console as another repository would.
process.env.STATEHOUSE_URL = baseURL;
const databaseUrl = chooseE2eDatabase();
const OUTAGE_SPECS = /outage\.spec\.ts$/;
const serverEnv = {
  DATABASE_URL: databaseUrl,
  STATEHOUSE_ROOT: projectRoot,
  STATEHOUSE_HOST: '127.0.0.1',
  NEXT_TELEMETRY_DISABLED: '1',
  // Answers of the /api fast path say so (e2e/api-door.spec.ts).
  STATEHOUSE_DOOR_HEADER: '1',
};

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: OUTAGE_SPECS,
      use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions() },
    },
    {
      // statehouse/playwright's own suite (playwright/tests; inner/ holds the suites it runs as child processes).
      name: 'kit',
      testDir: './playwright/tests',
      testIgnore: '**/inner/**',
      use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions() },
    },
    {
      // examples/adk-agent under Playwright with statehouse/playwright (the agent writes over HTTP).
      name: 'example',
      testDir: './examples/adk-agent/e2e',
      use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions() },
    },
    {
      // These take the database away from both servers, so they run after every
      // other spec, alone (run them by themselves with --no-deps).
      name: 'outage',
      testMatch: OUTAGE_SPECS,
      dependencies: ['chromium', 'kit', 'example'],
      use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions() },
    },
  ],
  webServer: [
    {
      // Migrated before the server starts: the schema engine needs the SQLite
      // file to itself, which it no longer has once the tests connect to it.
      command: `npx tsx scripts/db-migrate.ts && npx next build && npx next start --hostname 127.0.0.1 --port ${port}`,
      cwd: projectRoot,
      // The root page reads the database, so "ready" also means "connected".
      url: baseURL,
      env: serverEnv,
      // Never reuse: a server left running from an earlier run serves that run's database.
      reuseExistingServer: false,
      // A production build on 2 busy cores has taken over 5 minutes.
      timeout: 10 * 60_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      // Started after the first is ready (Playwright starts web servers in order), so the build exists.
      command: `npx next start --hostname 127.0.0.1 --port ${protectedPort}`,
      cwd: projectRoot,
      url: `${process.env.E2E_PROTECTED_URL}/sign-in`,
      env: { ...serverEnv, STATEHOUSE_AUTH: 'protected' },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
  ],
});
