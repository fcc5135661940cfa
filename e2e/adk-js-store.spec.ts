// The console over databases adk-js's own DatabaseSessionService wrote, on
// SQLite and on PostgreSQL: tiers, per-key deltas, time travel, and an
// append adk-js reads back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { APPS_PATH, appPath, sessionPath, userPath } from '../lib/paths';
import { createScratchDatabase, testProviders, type ScratchDatabase } from '../lib/testing/databases';
import { adkJsService, dumpAgentDatabase, writeAdkJsFixture } from '../lib/testing/adk-fixtures';
import { startAgentStoreServer, type AgentStoreServer } from './support/agent-store-server';
import { eventRow, stateEntry } from './support/session-page';

const alicePath = sessionPath('shop', 'alice', 'alice-1');
const providers = await testProviders();

for (const provider of providers) {
  test.describe(`adk-js store on ${provider}`, () => {
    test.describe.configure({ mode: 'serial' });

    let dir: string;
    let database: ScratchDatabase;
    let server: AgentStoreServer;

    test.beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'statehouse-e2e-adkjs-'));
      database = await createScratchDatabase(provider, 'e2eadkjs');
      await writeAdkJsFixture(database.url);
      const store = provider === 'sqlite' ? database.url.slice('file:'.length) : database.url;
      server = await startAgentStoreServer({
        server: provider === 'sqlite' ? 'adk-js sqlite store' : 'adk-js postgresql store',
        store,
        dir,
      });
    });

    test.afterAll(async () => {
      await server?.stop();
      await database?.remove();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function open(page: Page) {
      const live = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/state') && response.ok());
      await page.goto(`${server.baseURL}${alicePath}`);
      await live;
    }

    test('the session shows its three tiers and its events with their deltas', async ({ page }) => {
      await open(page);
      await expect(stateEntry(page, 'App state', 'theme')).toContainText('"light"');
      await expect(stateEntry(page, 'User state', 'name')).toContainText('"Alice B."');
      await expect(stateEntry(page, 'Session state', 'last_reply')).toContainText('"Added tea."');
      await expect(stateEntry(page, 'What the agent sees', 'user:likes')).toBeVisible();
      await expect(eventRow(page, 5)).toBeVisible();
      await expect(eventRow(page, 2)).toContainText('add_to_cart');
      await expect(eventRow(page, 5)).toContainText('cart');
    });

    test('time travel replays the deltas: after event 3 there is no last_reply yet', async ({ page }) => {
      await open(page);
      await eventRow(page, 3).getByRole('button', { name: 'Show the state after event 3' }).click();
      const banner = page.getByRole('region', { name: 'Time travel' });
      await expect(banner).toContainText('event #3');
      await expect(stateEntry(page, 'Session state', 'cart')).toBeVisible();
      await expect(stateEntry(page, 'Session state', 'last_reply')).toHaveCount(0);
      await banner.getByRole('button', { name: 'Back to now' }).click();
      await expect(stateEntry(page, 'Session state', 'last_reply')).toBeVisible();
    });

    test('browsing every page of the store changes no table of it', async ({ page, request }) => {
      const location = provider === 'sqlite' ? { sqlitePath: database.url.slice('file:'.length) } : { postgresUrl: database.url };
      const before = await dumpAgentDatabase(location);
      for (const path of [APPS_PATH, appPath('shop'), userPath('shop', 'alice'), alicePath, `${alicePath}?event=2`, appPath('desk')]) {
        const response = await page.goto(`${server.baseURL}${path}`);
        expect(response?.ok(), path).toBe(true);
      }
      for (const api of [
        '/api/apps/shop/users/alice/sessions',
        '/api/apps/shop/users/alice/sessions/alice-1',
        '/api/apps/shop/users/alice/sessions/alice-1/state?asOf=3',
      ]) {
        expect((await request.get(`${server.baseURL}${api}`)).ok(), api).toBe(true);
      }
      expect(await dumpAgentDatabase(location)).toEqual(before);
    });

    test('an append through the API is written the adk-js way: adk-js reads it, the page shows it', async ({ page, request }) => {
      await open(page);
      const response = await request.post(`${server.baseURL}/api/apps/shop/users/alice/sessions/alice-1/events`, {
        data: {
          author: 'support',
          invocationId: 'e2e',
          content: { role: 'user', parts: [{ text: 'Hello from support' }] },
          actions: { stateDelta: { note: 'vip' } },
        },
      });
      expect(response.ok(), await response.text()).toBe(true);
      // What was written is the point here; the 2 s live promise is adk-js-live.spec.ts's.
      await expect(stateEntry(page, 'Session state', 'note')).toContainText('"vip"', { timeout: 10_000 });
      await expect(eventRow(page, 6)).toContainText('Hello from support', { timeout: 10_000 });
      const adk = await adkJsService(database.url);
      try {
        const session = await adk.getSession({ appName: 'shop', userId: 'alice', sessionId: 'alice-1' });
        expect(session?.events.at(-1)?.content?.parts?.[0]?.text).toBe('Hello from support');
        expect(session?.state.note).toBe('vip');
      } finally {
        await adk.close();
      }
    });
  });
}
