// The console over both Redis session layouts side by side (issue 26):
// adk-python's integrations/redis (a hash per session under a key prefix)
// and adk-python-community's RedisSessionService (a session:{id} blob),
// each written by the reproduction of its service (lib/testing/adk-fixtures/redis.ts).
// Detected and served, tiers and time travel, an agent's append shown live,
// the console's append written the service's way, retention not offered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Redis } from 'ioredis';
import { APPS_PATH, appsPath, sessionPath } from '../lib/paths';
import { APP, T0 } from '../lib/testing/adk-fixtures';
import { appendAsPythonRedis } from '../lib/testing/adk-fixtures/redis';
import { writeAdkFixture } from '../lib/testing/adk-fixtures/stores';
import { startAgentStoreServer, type AgentStoreServer } from './support/agent-store-server';
import { eventRow, stateEntry } from './support/session-page';

test.describe.configure({ mode: 'serial' });

let dir: string;
let server: AgentStoreServer | undefined;
let python: Awaited<ReturnType<typeof writeAdkFixture>> | undefined;
let community: Awaited<ReturnType<typeof writeAdkFixture>> | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = mkdtempSync(join(tmpdir(), 'statehouse-e2e-redis-'));
  python = await writeAdkFixture({ family: 'redis', layout: 'adk-python' });
  community = await writeAdkFixture({ family: 'redis', layout: 'community' });
  server = await startAgentStoreServer({
    server: 'redis stores console',
    store: `py=${python.locator} community=${community.locator}`,
    dir,
  });
});

test.afterAll(async () => {
  await server?.stop();
  await python?.remove();
  await community?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('adk-python’s Redis store: detected, tiers, time travel, an agent’s append live, the console’s append with ADK’s revision', async ({
  page,
  request,
}) => {
  await page.goto(`${server!.baseURL}${APPS_PATH}`);
  await expect(page.getByRole('region', { name: 'Served store' })).toContainText('adk-python RedisSessionService');
  await page.goto(`${server!.baseURL}${sessionPath(APP, 'alice', 'trip-paris')}`);
  await expect(stateEntry(page, 'App state', 'bookings')).toContainText('3');
  await expect(stateEntry(page, 'User state', 'home_city')).toContainText('"Munich"');
  await expect(stateEntry(page, 'Session state', 'destination')).toContainText('"Lyon"');
  await expect(eventRow(page, 2)).toContainText('book_hotel');
  await eventRow(page, 2).getByRole('button', { name: 'Show the state after event 2' }).click();
  await expect(stateEntry(page, 'Session state', 'destination')).toContainText('"Paris"');
  await page.getByRole('region', { name: 'Time travel' }).getByRole('button', { name: 'Back to now' }).click();

  // The agent appends, as its append_event does: the open page shows it without a reload.
  const url = new URL(python!.locator);
  const prefix = url.searchParams.get('prefix') ?? '';
  url.search = '';
  const client = new Redis(url.toString());
  try {
    await appendAsPythonRedis(client, prefix, APP, 'alice', 'trip-paris', {
      id: 'agent-live',
      invocation_id: 'inv-live',
      author: 'planner',
      timestamp: T0 + 50.5,
      actions: { state_delta: { nights: 5 } },
      content: { role: 'model', parts: [{ text: 'Five nights it is' }] },
    });
    await expect(eventRow(page, 4)).toContainText('Five nights it is', { timeout: 10_000 });
    await expect(stateEntry(page, 'Session state', 'nights')).toContainText('5', { timeout: 10_000 });

    const response = await request.post(`${server!.baseURL}/api/apps/${APP}/users/alice/sessions/trip-paris/events`, {
      data: { author: 'support', invocationId: 'e2e', actions: { stateDelta: { note: 'vip' } } },
    });
    expect(response.ok(), await response.text()).toBe(true);
    await expect(stateEntry(page, 'Session state', 'note')).toContainText('"vip"', { timeout: 10_000 });
    const hash = await client.hgetall(`${prefix}:session:${APP}:alice:trip-paris`);
    expect(hash.revision).toBe('6');
    expect(JSON.parse(hash.state ?? '{}')).toEqual({ destination: 'Lyon', nights: 5, note: 'vip' });
  } finally {
    client.disconnect();
  }
});

test('the community store beside it: its own banner and state; retention is not offered, and the console says why', async ({ page }) => {
  await page.goto(`${server!.baseURL}${appsPath('community')}`);
  await expect(page.getByRole('region', { name: 'Served store' })).toContainText('adk-python-community RedisSessionService');
  await page.goto(`${server!.baseURL}${sessionPath(APP, 'alice', 'trip-paris', 'community')}`);
  await expect(stateEntry(page, 'App state', 'bookings')).toContainText('3');
  await expect(stateEntry(page, 'Session state', 'destination')).toContainText('"Lyon"');
  await expect(eventRow(page, 3)).toBeVisible();
  const operations = page.getByRole('group', { name: 'Session operations' });
  await expect(operations.getByRole('button', { name: 'Delete…' })).toHaveCount(0);
  await expect(page.getByTestId('operations-not-offered')).toContainText('the agent’s TTL');
});
