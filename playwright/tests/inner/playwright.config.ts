// Runs of the kit inside the kit's suite (playwright/tests/runs.spec.ts starts
// them as child `playwright test` processes): a suite as another repository
// would have it, pointed at STATEHOUSE_URL, no web server of its own.
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from '../../../e2e/support/browser';

export default defineConfig({
  testDir: '.',
  testMatch: process.env.KIT_INNER_SPEC ?? 'isolation.spec.ts',
  outputDir: process.env.KIT_INNER_OUTPUT ?? '../../../test-results/kit-inner',
  fullyParallel: true,
  retries: 0,
  reporter: [['json', { outputFile: process.env.KIT_INNER_REPORT ?? '../../../test-results/kit-inner.json' }]],
  use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions() },
});
