// The console over an adk-python store holding rows no ADK would write
// (lib/testing/adk-fixtures/hostile.ts): the app and user pages list every
// session, a session with a null content part renders in the browser with
// that event marked unreadable and the rest shown, and a session whose own
// row cannot be read says which column holds what, instead of failing.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { appPath, sessionPath, userPath } from '../lib/paths';
import { APP } from '../lib/testing/adk-fixtures';
import { HOSTILE_USER, writeHostileRows } from '../lib/testing/adk-fixtures/hostile';
import { writeAdkFixture } from '../lib/testing/adk-fixtures/stores';
import { startAgentStoreServer, type AgentStoreServer } from './support/agent-store-server';
import { eventRow } from './support/session-page';

test.describe.configure({ mode: 'serial' });

let server: AgentStoreServer | undefined;
let fixture: Awaited<ReturnType<typeof writeAdkFixture>> | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const kind = { family: 'py-sqlite', wal: true } as const;
  fixture = await writeAdkFixture(kind);
  await writeHostileRows(fixture, kind, APP, ['part-null', 'data-invalid', 'state-broken']);
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

// Fails today: the API answers 422 for a session whose own row cannot be read, but the page still reaches
// the root error boundary ("This page could not be loaded") instead of the 422 panel (docs/adk-stores.md).
test.fixme('an event whose JSON is broken shows its raw text; a session whose row is broken says why', async ({ page }) => {
  await page.goto(`${server!.baseURL}${sessionPath(APP, HOSTILE_USER, 'data-invalid')}`);
  await expect(eventRow(page, 2).getByRole('note')).toContainText('{broken');
  await expect(eventRow(page, 3)).toBeVisible();
  await page.goto(`${server!.baseURL}${sessionPath(APP, HOSTILE_USER, 'state-broken')}`);
  await expect(page.getByRole('alert')).toContainText('Session state-broken cannot be read');
  await expect(page.getByRole('alert')).toContainText('{broken');
});
