// axe-core on every page type of a console serving an agent's ADK store
// (adk-python's SqliteSessionService, WAL mode), light and dark, desktop and
// phone: no violations, best practices included.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { APPS_PATH, appPath, auditPath, comparePath, sessionPath, userPath } from '../lib/paths';
import { APP } from '../lib/testing/adk-fixtures';
import { writeAdkFixture } from '../lib/testing/adk-fixtures/stores';
import { startAgentStoreServer, type AgentStoreServer } from './support/agent-store-server';
import { settle } from './support/page-types';

test.describe.configure({ mode: 'serial' });

let server: AgentStoreServer | undefined;
let fixture: Awaited<ReturnType<typeof writeAdkFixture>> | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fixture = await writeAdkFixture({ family: 'py-sqlite', wal: true });
  server = await startAgentStoreServer({
    server: 'accessibility adk store console',
    store: fixture.locator,
    dir: mkdtempSync(join(tmpdir(), 'statehouse-e2e-axe-adk-')),
  });
});

test.afterAll(async () => {
  await server?.stop();
  await fixture?.remove();
});

const paris = { appName: APP, userId: 'alice', sessionId: 'trip-paris' };
const PAGES = [
  { name: 'apps', path: APPS_PATH },
  { name: 'app', path: appPath(APP) },
  { name: 'app users', path: `${appPath(APP)}?tab=users` },
  { name: 'user', path: userPath(APP, 'alice') },
  { name: 'session', path: sessionPath(APP, 'alice', 'trip-paris') },
  { name: 'session in the past', path: `${sessionPath(APP, 'alice', 'trip-paris')}?event=2` },
  { name: 'compare: choose', path: comparePath(paris) },
  { name: 'compare sessions', path: comparePath(paris, { ...paris, sessionId: 'trip-rome' }) },
  { name: 'compare users', path: comparePath({ appName: APP, userId: 'alice' }, { appName: APP, userId: 'bob' }) },
  { name: 'audit log', path: auditPath() },
  { name: 'template preview', path: '/preview' },
];

async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes
        .map((node) => node.target.join(' '))
        .slice(0, 3)
        .join(', ')})`,
  );
}

for (const colorScheme of ['light', 'dark'] as const) {
  for (const device of ['desktop', 'phone'] as const) {
    test(`every page type over an adk-python store has no axe violations, ${colorScheme} theme, ${device}`, async ({ page }) => {
      test.setTimeout(300_000);
      if (device === 'phone') await page.setViewportSize({ width: 390, height: 844 });
      await page.emulateMedia({ colorScheme });
      const found: string[] = [];
      for (const { name, path } of PAGES) {
        await page.goto(`${server!.baseURL}${path}`);
        await settle(page);
        for (const violation of await violations(page)) found.push(`${name} (${path}): ${violation}`);
      }
      expect(found, found.join('\n')).toEqual([]);
    });
  }
}
