// The console over an adk-python store holding rows no ADK would write
// (lib/testing/adk-fixtures/hostile.ts): the app and user pages list every
// session, a session with a null content part renders in the browser with
// that event marked unreadable and the rest shown, and a session whose own
// row cannot be read says which column holds what, instead of failing. An
// app or user whose shared tier cannot be read shows the rest of its page,
// the tier in place as unreadable; a session under it says why.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { appPath, sessionPath, userPath } from '../lib/paths';
import { APP } from '../lib/testing/adk-fixtures';
import { HOSTILE_USER, writeHostileRows } from '../lib/testing/adk-fixtures/hostile';
import { BROKEN_APP, BROKEN_USER, writeHostileTiers } from '../lib/testing/adk-fixtures/hostile-tiers';
import { writeAdkFixture } from '../lib/testing/adk-fixtures/stores';
import { startAgentStoreServer, type AgentStoreServer } from './support/agent-store-server';
import { eventRow } from './support/session-page';

test.describe.configure({ mode: 'serial' });

/** The page's panel for a row that cannot be read (Next's route announcer is an alert too). */
const unreadablePanel = (page: Page) => page.getByRole('alert').filter({ hasText: 'cannot be read' });

let server: AgentStoreServer | undefined;
let fixture: Awaited<ReturnType<typeof writeAdkFixture>> | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const kind = { family: 'py-sqlite', wal: true } as const;
  fixture = await writeAdkFixture(kind);
  await writeHostileRows(fixture, kind, APP, ['part-null', 'data-invalid', 'state-broken', 'update-text']);
  await writeHostileTiers(fixture, kind, APP);
  server = await startAgentStoreServer({
    server: 'ephemeral',
    store: fixture.locator,
    dir: mkdtempSync(join(tmpdir(), 'statehouse-e2e-hostile-')),
  });
});

test.afterAll(async () => {
  await server?.stop();
  await fixture?.remove();
});

test('the app and the hostile user’s page list every session', async ({ page }) => {
  await page.goto(`${server!.baseURL}${appPath(APP)}`);
  await expect(page.getByText('trip-paris').first()).toBeVisible();
  await page.goto(`${server!.baseURL}${userPath(APP, HOSTILE_USER)}`);
  for (const id of ['part-null', 'data-invalid', 'state-broken']) await expect(page.getByText(id).first()).toBeVisible();
});

test('a session whose update time cannot be read is listed with that time unreadable, not 1970', async ({ page }) => {
  await page.goto(`${server!.baseURL}${userPath(APP, HOSTILE_USER)}`);
  const row = page.getByRole('row').filter({ hasText: 'update-text' });
  await expect(row.getByText('unreadable')).toBeVisible();
  await expect(row).not.toContainText('1970');
  await expect(row).not.toContainText('years ago');
  // The user's last activity is the newest time that can be read, not the unreadable one (which sorts first).
  await expect(page.getByRole('main')).not.toContainText('1970');
  await expect(page.getByRole('main')).not.toContainText('years ago');
});

test('a session with a null content part renders, the event marked and the rest shown', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server!.baseURL}${sessionPath(APP, HOSTILE_USER, 'part-null')}`);
  const event = eventRow(page, 2);
  await expect(event.getByRole('note', { name: 'Event 2: unreadable in storage' })).toContainText('content.parts[0]');
  await expect(event).toContainText('after a null part');
  await expect(eventRow(page, 1)).toContainText('Plan a trip to Paris');
  expect(errors).toEqual([]);
});

test('an event whose JSON is broken shows its raw text; a session whose row is broken says why', async ({ page }) => {
  await page.goto(`${server!.baseURL}${sessionPath(APP, HOSTILE_USER, 'data-invalid')}`);
  await expect(eventRow(page, 2).getByRole('note')).toContainText('{broken');
  await expect(eventRow(page, 3)).toBeVisible();
  for (const query of ['', '?event=1']) {
    const answer = await page.goto(`${server!.baseURL}${sessionPath(APP, HOSTILE_USER, 'state-broken')}${query}`);
    expect(answer?.status(), query).toBeLessThan(500);
    await expect(unreadablePanel(page)).toContainText('Session state-broken cannot be read');
    await expect(unreadablePanel(page)).toContainText('{broken');
    await expect(page.getByRole('heading', { name: 'This page could not be loaded' })).toHaveCount(0);
  }
});

test('an app whose app tier is broken shows its sessions and users, the tier marked unreadable', async ({ page }) => {
  const answer = await page.goto(`${server!.baseURL}${appPath(BROKEN_APP)}`);
  expect(answer?.status()).toBe(200);
  await expect(unreadablePanel(page)).toContainText('App state cannot be read');
  await expect(unreadablePanel(page)).toContainText('{broken');
  await expect(page.getByText('trip-paris').first()).toBeVisible();
  // The other app's tier is as it was.
  await page.goto(`${server!.baseURL}${appPath(APP)}`);
  await expect(unreadablePanel(page)).toHaveCount(0);
  await expect(page.getByText('bookings').first()).toBeVisible();
});

test('a user whose user tier is broken shows their sessions and history, the tier marked unreadable', async ({ page }) => {
  const answer = await page.goto(`${server!.baseURL}${userPath(APP, BROKEN_USER)}`);
  expect(answer?.status()).toBe(200);
  await expect(unreadablePanel(page)).toContainText('User state cannot be read');
  await expect(page.getByRole('region', { name: 'User state history' })).toBeVisible();
  await expect(page.getByText('trip-paris').first()).toBeVisible();
  await page.goto(`${server!.baseURL}${userPath(APP, 'alice')}`);
  await expect(page.getByText('Munich').first()).toBeVisible();
});

test('a session under a broken tier says which tier, at any point in time', async ({ page }) => {
  for (const [appName, userId, tier] of [
    [BROKEN_APP, 'alice', `App ${BROKEN_APP}'s state`],
    [APP, BROKEN_USER, `User ${BROKEN_USER}'s state`],
  ] as const) {
    for (const query of ['', '?event=2']) {
      const answer = await page.goto(`${server!.baseURL}${sessionPath(appName, userId, 'trip-paris')}${query}`);
      expect(answer?.status(), `${appName}/${userId}${query}`).toBeLessThan(500);
      await expect(unreadablePanel(page)).toContainText('Session trip-paris cannot be read');
      await expect(unreadablePanel(page)).toContainText(tier);
    }
  }
});
