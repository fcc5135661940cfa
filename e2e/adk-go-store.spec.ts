// The console over an adk-go session/database store on SQLite (written by
// the reproduction of GORM's tables and service.go's writes): detected and
// served, tiers, deltas, time travel, and an append stored in Go's columns.
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { sessionPath } from '../lib/paths';
import { APP } from '../lib/testing/adk-fixtures';
import { writeAdkFixture } from '../lib/testing/adk-fixtures/stores';
import { startAgentStoreServer, type AgentStoreServer } from './support/agent-store-server';
import { eventRow, stateEntry } from './support/session-page';

test.describe.configure({ mode: 'serial' });

let server: AgentStoreServer | undefined;
let fixture: Awaited<ReturnType<typeof writeAdkFixture>> | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  fixture = await writeAdkFixture({ family: 'adk-go', dialect: 'sqlite' });
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  server = await startAgentStoreServer({
    server: 'adk-go store',
    store: fixture.locator,
    dir: mkdtempSync(join(tmpdir(), 'statehouse-e2e-adkgo-')),
  });
});

test.afterAll(async () => {
  await server?.stop();
  await fixture?.remove();
});

test('an adk-go store: detected, tiers, deltas, time travel and an append in Go’s columns', async ({ page, request }) => {
  await page.goto(`${server!.baseURL}/apps`);
  await expect(page.getByRole('region', { name: 'Served store' }).or(page.getByLabel('Served store'))).toContainText('adk-go');
  const live = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/state') && response.ok());
  await page.goto(`${server!.baseURL}${sessionPath(APP, 'alice', 'trip-paris')}`);
  await live;
  await expect(stateEntry(page, 'App state', 'bookings')).toContainText('3');
  await expect(stateEntry(page, 'User state', 'home_city')).toContainText('"Munich"');
  await expect(stateEntry(page, 'Session state', 'destination')).toContainText('"Lyon"');
  await expect(eventRow(page, 2)).toContainText('book_hotel');

  await eventRow(page, 2).getByRole('button', { name: 'Show the state after event 2' }).click();
  await expect(page.getByRole('region', { name: 'Time travel' })).toContainText('event #2');
  await expect(stateEntry(page, 'Session state', 'destination')).toContainText('"Paris"');
  await page.getByRole('region', { name: 'Time travel' }).getByRole('button', { name: 'Back to now' }).click();

  const response = await request.post(`${server!.baseURL}/api/apps/${APP}/users/alice/sessions/trip-paris/events`, {
    data: {
      author: 'support',
      invocationId: 'e2e',
      content: { role: 'user', parts: [{ text: 'Go, hello' }] },
      actions: { stateDelta: { note: 'vip' } },
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
  await expect(stateEntry(page, 'Session state', 'note')).toContainText('"vip"', { timeout: 10_000 });
  await expect(eventRow(page, 4)).toContainText('Go, hello', { timeout: 10_000 });

  const db = new Database((fixture!.location as { sqlitePath: string }).sqlitePath, { readonly: true });
  try {
    const row = db.prepare("SELECT content, actions, typeof(actions) AS kind, timestamp FROM events WHERE invocation_id = 'e2e'").get() as {
      content: string;
      actions: Buffer;
      kind: string;
      timestamp: string;
    };
    expect(JSON.parse(row.content)).toEqual({ parts: [{ text: 'Go, hello' }], role: 'user' });
    expect(row.kind).toBe('blob');
    expect(JSON.parse(row.actions.toString('utf8'))).toEqual({ stateDelta: { note: 'vip' }, artifactDelta: {} });
    // time.Time.String() in the writer's zone, as the agent's own rows.
    expect(row.timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \+0100 CET$/);
  } finally {
    db.close();
  }
});
