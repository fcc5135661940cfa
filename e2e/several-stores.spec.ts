// Two agents' stores side by side (issue 26): STATEHOUSE_STORE="prod=... dev=...".
// The first store stays at /apps; every store is browsable under
// /stores/{id}, with a switcher in the header, its own banner, links that
// stay in it, and live data from its own API.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { APPS_PATH, appsPath, sessionPath } from '../lib/paths';
import { writeAdkJsFixture } from '../lib/testing/adk-fixtures';
import { writeAdkFixture } from '../lib/testing/adk-fixtures/stores';
import { startAgentStoreServer, type AgentStoreServer } from './support/agent-store-server';
import { eventRow, stateEntry } from './support/session-page';

test.describe('several stores side by side', () => {
  test.describe.configure({ mode: 'serial' });
  let dir: string;
  let server: AgentStoreServer;
  let removePython: () => Promise<void>;

  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'statehouse-e2e-stores-'));
    const python = await writeAdkFixture({ family: 'py-sqlite' });
    removePython = python.remove;
    const jsPath = join(dir, 'adk-js.db');
    await writeAdkJsFixture(`file:${jsPath}`);
    server = await startAgentStoreServer({ server: 'several stores console', store: `prod=${python.locator} dev=${jsPath}`, dir });
  });
  test.afterAll(async () => {
    await server?.stop();
    await removePython?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the first store is at /apps; the switcher opens the other, with its banner', async ({ page }) => {
    await page.goto(`${server.baseURL}${APPS_PATH}`);
    const banner = page.getByRole('region', { name: 'Served store' });
    await expect(banner).toContainText('Store prod:');
    await expect(banner).toContainText('adk-python SqliteSessionService');
    await expect(page.getByRole('link', { name: 'travel_agent' })).toBeVisible();

    await page.getByTestId('store-switcher').selectOption('dev');
    await expect(page).toHaveURL(`${server.baseURL}${appsPath('dev')}`);
    await expect(banner).toContainText('Store dev:');
    await expect(banner).toContainText('adk-js');
    await expect(page.getByRole('link', { name: 'shop' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'travel_agent' })).toHaveCount(0);
  });

  test('links stay in the store, and the session page reads its live data from that store', async ({ page }) => {
    await page.goto(`${server.baseURL}${appsPath('dev')}`);
    await page.getByRole('link', { name: 'shop' }).click();
    await expect(page).toHaveURL(/\/stores\/dev\/apps\/shop$/);
    await page.goto(`${server.baseURL}${sessionPath('shop', 'alice', 'alice-1', 'dev')}`);
    await expect(stateEntry(page, 'App state', 'theme')).toContainText('"light"');
    await expect(eventRow(page, 5)).toBeVisible();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'user alice' }).click();
    await expect(page).toHaveURL(/\/stores\/dev\/apps\/shop\/users\/alice$/);
    // The same names at the root are the first store's, which has no app "shop".
    const root = await page.request.get(`${server.baseURL}/api/apps/shop/users/alice/sessions/alice-1`);
    expect(root.status()).toBe(404);
    const dev = await page.request.get(`${server.baseURL}/api/stores/dev/apps/shop/users/alice/sessions/alice-1`);
    expect(dev.status()).toBe(200);
  });

  test('a fork on the second store opens the fork in that store', async ({ page }) => {
    await page.goto(`${server.baseURL}${sessionPath('shop', 'alice', 'alice-1', 'dev')}`);
    await page.getByRole('group', { name: 'Session operations' }).getByRole('button', { name: 'Fork' }).click();
    const form = page.getByRole('form', { name: 'Fork this session' });
    await form.getByLabel(/after event/i).fill('3');
    await form.getByLabel(/new session id/i).fill('alice-fork');
    await form.getByRole('button', { name: 'Fork' }).click();
    await expect(page).toHaveURL(/\/stores\/dev\/apps\/shop\/users\/alice\/sessions\/alice-fork$/);
    await expect(eventRow(page, 3)).toBeVisible();
    await expect(stateEntry(page, 'Session state', 'cart')).toContainText('"tea"');
  });
});

test.describe('operations an ADK store cannot do faithfully', () => {
  let dir: string;
  let server: AgentStoreServer;
  let removePython: () => Promise<void>;

  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'statehouse-e2e-refusals-'));
    const python = await writeAdkFixture({ family: 'py-sqlite' });
    removePython = python.remove;
    server = await startAgentStoreServer({ server: 'several stores console', store: `prod=${python.locator}`, dir });
  });
  test.afterAll(async () => {
    await server?.stop();
    await removePython?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('are not offered, and the console says why; the whole session is', async ({ page }) => {
    await page.goto(`${server.baseURL}${sessionPath('travel_agent', 'alice', 'trip-paris')}`);
    await page.getByRole('group', { name: 'Session operations' }).getByRole('button', { name: 'Delete…' }).click();
    await expect(page.getByRole('radio', { name: 'The whole session' })).toBeVisible();
    await expect(page.getByRole('radio', { name: 'The events of one invocation' })).toHaveCount(0);
    await expect(page.getByText('Delete the whole session instead.')).toBeVisible();
    await page.getByRole('button', { name: 'Count what would be deleted' }).click();
    await expect(page.getByTestId('prune-count')).toHaveText('Would delete 1 session with 3 events.');
  });
});
