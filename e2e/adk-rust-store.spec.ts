// The console over an adk-rust SQLite store (written by the generator that
// reproduces adk-rust v2.0.0): tiers, deltas, time travel and an append
// stored in Rust's columns.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { sessionPath } from '../lib/paths';
import { writeRustFixture } from '../lib/testing/adk-fixtures';
import { startAgentStoreServer, type AgentStoreServer } from './support/agent-store-server';
import { eventRow, stateEntry } from './support/session-page';

test.describe.configure({ mode: 'serial' });

let dir: string;
let file: string;
let server: AgentStoreServer;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'statehouse-e2e-adkrust-'));
  file = join(dir, 'agent.db');
  await writeRustFixture(`file:${file}`);
  server = await startAgentStoreServer({ server: 'adk-rust store', store: file, dir });
});

test.afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('an adk-rust store: tiers, deltas, time travel and an append', async ({ page, request }) => {
  const live = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/state') && response.ok());
  await page.goto(`${server.baseURL}${sessionPath('shop', 'alice', 'alice-1')}`);
  await live;
  await expect(stateEntry(page, 'App state', 'theme')).toContainText('"light"');
  await expect(stateEntry(page, 'User state', 'likes')).toContainText('tea');
  await expect(stateEntry(page, 'Session state', 'cart')).toContainText('cups');
  await expect(eventRow(page, 2)).toContainText('add_to_cart');
  await expect(eventRow(page, 5)).toContainText('cart');

  await eventRow(page, 3).getByRole('button', { name: 'Show the state after event 3' }).click();
  await expect(page.getByRole('region', { name: 'Time travel' })).toContainText('event #3');
  await expect(stateEntry(page, 'Session state', 'last_reply')).toHaveCount(0);
  await page.getByRole('region', { name: 'Time travel' }).getByRole('button', { name: 'Back to now' }).click();

  const response = await request.post(`${server.baseURL}/api/apps/shop/users/alice/sessions/alice-1/events`, {
    data: {
      author: 'support',
      invocationId: 'e2e',
      content: { role: 'user', parts: [{ text: 'Rust, hello' }] },
      actions: { stateDelta: { note: 'vip' } },
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
  // What was written is the point here; the 2 s live promise is adk-js-live.spec.ts's.
  await expect(stateEntry(page, 'Session state', 'note')).toContainText('"vip"', { timeout: 10_000 });
  await expect(eventRow(page, 6)).toContainText('Rust, hello', { timeout: 10_000 });

  const db = new Database(file, { readonly: true });
  try {
    const row = db.prepare("SELECT llm_response, actions, timestamp FROM events WHERE invocation_id = 'e2e'").get() as Record<
      string,
      string
    >;
    expect(JSON.parse(row.llm_response ?? '{}').content).toEqual({ role: 'user', parts: [{ text: 'Rust, hello' }] });
    expect(JSON.parse(row.actions ?? '{}').state_delta).toEqual({ note: 'vip' });
    expect(row.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
    const session = db.prepare("SELECT state FROM sessions WHERE session_id = 'alice-1'").get() as { state: string };
    expect(JSON.parse(session.state)).toMatchObject({ note: 'vip', 'app:theme': 'light', 'user:name': 'Alice B.' });
  } finally {
    db.close();
  }
});
