// The console over a database adk-js's own DatabaseSessionService wrote
// (SQLite): tiers, per-key deltas, time travel, and an append adk-js reads back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { sessionPath } from '../lib/paths';
import { adkJsService, writeAdkJsFixture } from '../lib/stores/adk/js/fixture';
import { agentStorePort, startAgentStoreServer, type AgentStoreServer } from './support/agent-store-server';
import { eventRow, stateColumn, stateEntry } from './support/session-page';

test.describe.configure({ mode: 'serial' });

let dir: string;
let file: string;
let server: AgentStoreServer;
const alicePath = sessionPath('shop', 'alice', 'alice-1');

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'statehouse-e2e-adkjs-'));
  file = join(dir, 'agent.db');
  await writeAdkJsFixture(`file:${file}`);
  server = await startAgentStoreServer({ port: agentStorePort(2), store: file, dir });
});

test.afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function open(page: import('@playwright/test').Page, search = '') {
  const live = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/state') && response.ok());
  await page.goto(`${server.baseURL}${alicePath}${search}`);
  await live;
}

test('the session of an adk-js store shows its three tiers and its events with their deltas', async ({ page }) => {
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
  await expect(page.getByRole('region', { name: 'Time travel' })).toContainText('event #3');
  await expect(stateEntry(page, 'Session state', 'cart')).toBeVisible();
  await expect(stateEntry(page, 'Session state', 'last_reply')).toHaveCount(0);
  await page.getByRole('region', { name: 'Time travel' }).getByRole('button', { name: 'Back to now' }).click();
  await expect(stateEntry(page, 'Session state', 'last_reply')).toBeVisible();
});

test('an append through the API is written the adk-js way: adk-js reads it, the page shows it', async ({ page, request }) => {
  await open(page);
  const response = await request.post(`${server.baseURL}/api/apps/shop/users/alice/sessions/alice-1/events`, {
    data: { author: 'support', invocationId: 'e2e', content: { role: 'user', parts: [{ text: 'Hello from support' }] }, actions: { stateDelta: { note: 'vip' } } },
  });
  expect(response.ok(), await response.text()).toBe(true);
  await expect(stateEntry(page, 'Session state', 'note')).toContainText('"vip"', { timeout: 2_000 });
  await expect(eventRow(page, 6)).toContainText('Hello from support', { timeout: 10_000 });
  const adk = await adkJsService(`file:${file}`);
  try {
    const session = await adk.getSession({ appName: 'shop', userId: 'alice', sessionId: 'alice-1' });
    expect(session?.events.at(-1)?.content?.parts?.[0]?.text).toBe('Hello from support');
    expect(session?.state.note).toBe('vip');
  } finally {
    await adk.close();
  }
  await expect(stateColumn(page, 'App state')).toBeVisible();
});
