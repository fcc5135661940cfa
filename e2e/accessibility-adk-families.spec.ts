// axe-core on every page type of a console serving each ADK family's store
// other than adk-python's SqliteSessionService (e2e/accessibility-adk.spec.ts
// has that one): adk-js, adk-rust, adk-go and adk-python's v1
// DatabaseSessionService, light and dark, desktop and phone, best practices
// included. One console at a time, on one port, so the families run in turn.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { APPS_PATH, appPath, auditPath, comparePath, sessionPath, userPath } from '../lib/paths';
import { APP } from '../lib/testing/adk-fixtures';
import type { AdkFixtureKind } from '../lib/testing/adk-fixtures/registry';
import { writeAdkFixture } from '../lib/testing/adk-fixtures/stores';
import { startAgentStoreServer, type AgentStoreServer } from './support/agent-store-server';
import { settle } from './support/page-types';

test.describe.configure({ mode: 'serial' });

const FAMILIES: { name: string; kind: AdkFixtureKind }[] = [
  { name: 'adk-js', kind: { family: 'adk-js' } },
  { name: 'adk-rust', kind: { family: 'adk-rust' } },
  { name: 'adk-go', kind: { family: 'adk-go' } },
  { name: 'adk-python DatabaseSessionService v1', kind: { family: 'py-db', clock: 'utc' } },
];

const paris = { appName: APP, userId: 'alice', sessionId: 'trip-paris' };
const PAGES = [
  { name: 'apps', path: APPS_PATH },
  { name: 'app', path: appPath(APP) },
  { name: 'app, filtered', path: `${appPath(APP)}?key=destination&value=par&sort=oldest` },
  { name: 'app users', path: `${appPath(APP)}?tab=users` },
  { name: 'app events', path: `${appPath(APP)}?tab=events&text=paris` },
  { name: 'user', path: userPath(APP, 'alice') },
  { name: 'session', path: sessionPath(APP, 'alice', 'trip-paris') },
  { name: 'session in the past', path: `${sessionPath(APP, 'alice', 'trip-paris')}?event=2` },
  { name: 'session timeline, filtered', path: `${sessionPath(APP, 'alice', 'trip-paris')}?text=paris` },
  { name: 'compare: choose', path: comparePath(paris) },
  { name: 'compare sessions', path: comparePath(paris, { ...paris, sessionId: 'trip-rome' }) },
  { name: 'compare users', path: comparePath({ appName: APP, userId: 'alice' }, { appName: APP, userId: 'bob' }) },
  { name: 'audit log', path: auditPath() },
  { name: 'template preview', path: '/preview' },
  { name: 'not found', path: `${userPath(APP, 'alice')}/sessions/no-such-session` },
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

for (const { name: family, kind } of FAMILIES) {
  test.describe(family, () => {
    let server: AgentStoreServer | undefined;
    let fixture: Awaited<ReturnType<typeof writeAdkFixture>> | undefined;

    test.beforeAll(async () => {
      test.setTimeout(180_000);
      fixture = await writeAdkFixture(kind);
      server = await startAgentStoreServer({
        server: 'accessibility adk families console',
        store: fixture.locator,
        dir: mkdtempSync(join(tmpdir(), 'statehouse-e2e-axe-families-')),
      });
    });

    test.afterAll(async () => {
      await server?.stop();
      await fixture?.remove();
    });

    for (const device of ['desktop', 'phone'] as const) {
      // Both themes on each page as loaded: the colours follow prefers-color-scheme in CSS (light-dark()), so no reload is needed.
      test(`every page type over an ${family} store has no axe violations, light and dark, ${device}`, async ({ page }) => {
        test.setTimeout(600_000);
        if (device === 'phone') await page.setViewportSize({ width: 390, height: 844 });
        const found: string[] = [];
        for (const { name, path } of PAGES) {
          await page.emulateMedia({ colorScheme: 'light' });
          await page.goto(`${server!.baseURL}${path}`);
          await settle(page);
          for (const colorScheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme });
            for (const violation of await violations(page)) found.push(`${name} (${path}), ${colorScheme}: ${violation}`);
          }
        }
        expect(found, found.join('\n')).toEqual([]);
      });
    }
  });
}
