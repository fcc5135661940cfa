// The suite a new project runs with the packed kit (written into the project
// by scripts/kit-tarball/run.ts): 4 workers, both namespace modes, each test
// writing every tier (an app: key of the shared app included), an agent-like append, and a deliberate failure whose clean-up
// still runs.
export const SHARED_APP = 'kit-shared';

export const CONFIG = `import { defineConfig } from '@playwright/test';
import { statehouseWebServer } from 'statehouse/playwright/config';

export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
  workers: 4,
  retries: 0,
  reporter: [['json', { outputFile: process.env.KIT_REPORT ?? 'report.json' }]],
  // The fixture's failure screenshots need a browser: this machine's Chromium.
  use: { launchOptions: { executablePath: process.env.KIT_CHROMIUM || undefined, args: ['--disable-gpu', '--disable-dev-shm-usage'] } },
  // STATEHOUSE_URL is set: no embedded console, it only waits for the deployment.
  webServer: [statehouseWebServer()],
});
`;

export const SPEC = `import { expect, test } from 'statehouse/playwright';

for (const mode of ['app', 'user'] as const) {
  test.describe(\`namespace \${mode}\`, () => {
    test.use({ statehouseNamespace: mode, statehouseApp: mode === 'user' ? '${SHARED_APP}' : 'kit-new' });

    for (let i = 0; i < 6; i += 1) {
      test(\`test \${i} writes every tier and sees only its own\`, async ({ statehouse }) => {
        const session = await statehouse.seed({
          user: 'ada',
          session: 'conversation',
          // Each test its own app: key: tests that seed one key of a shared app at once see each other's value (docs/testing.md).
          state: { [\`app:seen-\${i}\`]: i, 'user:name': \`Ada \${i}\`, topic: \`topic \${i}\` },
        });
        // What the agent writes while the test runs.
        await statehouse.client.appendEvent(session, { author: 'agent', actions: { stateDelta: { step: i, 'user:visits': i } } });
        await new Promise((resolve) => setTimeout(resolve, 100 + 40 * i));
        await expect(session).toHaveStateKey('step', i);
        await expect(session).toHaveStateKey('user:name', \`Ada \${i}\`);
        const listed = await statehouse.client.listSessions(statehouse.appName, statehouse.userId('ada'));
        expect(listed.map((s) => s.id)).toEqual(['conversation']);
      });
    }

    test('a deliberate failure still cleans up', async ({ statehouse }) => {
      test.fail();
      const session = await statehouse.seed({ user: 'doomed', state: { 'app:flag': 'on', topic: 'tea' } });
      await expect(session).toHaveStateKey('topic', 'coffee', { timeout: 300 });
    });
  });
}
`;
