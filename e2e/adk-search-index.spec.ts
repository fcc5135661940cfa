// The header search on a console serving an adk-python store, through the
// search index the console keeps of it in its own database: the follower
// fills it in the background, the Find dialog ("/") finds a customer by a
// state value ("Carol Nguyen") among thousands of sessions, and a session
// the agent writes afterwards is found once the follower has read it; the
// Events tab finds an event through the same index. The agent's database
// gets no table of Statehouse's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { appPath, sessionPath, userPath } from '../lib/paths';
import { PY_SQLITE_DDL } from '../lib/testing/adk-fixtures/python-sqlite';
import { startAgentStoreServer, type AgentStoreServer } from './support/agent-store-server';

test.describe.configure({ mode: 'serial' });

const APP = 'support';
const SESSIONS = 5_000;
const CAROL = 4_321;
const SEARCH_BOX = 'Search apps, users, sessions and state values';

let dir: string;
let agentPath: string;
let server: AgentStoreServer | undefined;

function agentTables(): string[] {
  const db = new Database(agentPath, { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
      (row) => row.name,
    );
  } finally {
    db.close();
  }
}

/** Whether the console's own database says the index holds every session of the store. */
function indexFilled(): boolean {
  const db = new Database(join(dir, 'statehouse.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT filled FROM store_search_progress').get() as { filled: number } | undefined;
    return row?.filled === 1;
  } catch {
    return false;
  } finally {
    db.close();
  }
}

async function openFind(page: Page) {
  const search = page.getByRole('combobox', { name: SEARCH_BOX });
  // The shortcut works once the page has hydrated; until then the key press does nothing.
  await expect(async () => {
    await page.keyboard.press('/');
    await expect(search).toBeVisible({ timeout: 1000 });
  }).toPass();
  return search;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(join(tmpdir(), 'statehouse-e2e-adk-search-'));
  agentPath = join(dir, 'agent.db');
  const agent = new Database(agentPath);
  agent.pragma('journal_mode = WAL');
  agent.exec(PY_SQLITE_DDL);
  agent.exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${SESSIONS - 1})
    INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time)
    SELECT '${APP}', printf('cust-%04d', i), printf('booking-%04d', i),
      json_object('profile', json_object('name', CASE WHEN i = ${CAROL} THEN 'Carol Nguyen' ELSE printf('Customer %d', i) END)),
      1790000000 + i, 1790000000 + i FROM n`);
  const event = {
    id: 'carol-asks',
    invocation_id: 'inv-carol',
    author: 'user',
    timestamp: 1790000000 + CAROL,
    content: { role: 'user', parts: [{ text: 'My parcel never arrived' }] },
    actions: { state_delta: {} },
  };
  agent
    .prepare('INSERT INTO events (id, app_name, user_id, session_id, invocation_id, timestamp, event_data) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(event.id, APP, `cust-${CAROL}`, `booking-${CAROL}`, event.invocation_id, event.timestamp, JSON.stringify(event));
  agent
    .prepare('INSERT INTO user_states (app_name, user_id, state, update_time) VALUES (?, ?, ?, ?)')
    .run(APP, `cust-${CAROL}`, JSON.stringify({ name: 'Carol Nguyen', tier: 'gold' }), 1790000000);
  agent.close();
  server = await startAgentStoreServer({ server: 'adk search index console', store: agentPath, dir });
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('the Find dialog finds a customer by a state value through the index the follower keeps', async ({ page }) => {
  test.setTimeout(120_000);
  const tables = agentTables();
  await expect.poll(indexFilled, { timeout: 60_000 }).toBe(true);

  await page.goto(`${server!.baseURL}/apps`);
  const search = await openFind(page);
  await search.fill('Carol Nguyen');
  const results = page.getByRole('listbox', { name: 'Results' });
  await expect(results.getByRole('option')).toHaveCount(2);
  await expect(results.getByRole('option', { name: /^User/ })).toContainText(`cust-${CAROL}`);
  await expect(results.getByRole('option', { name: /^User/ })).toContainText('user:name: Carol Nguyen');
  await expect(results.getByRole('option', { name: /^Session/ })).toContainText(`booking-${CAROL}`);
  await expect(results.getByRole('option', { name: /^Session/ })).toContainText('profile: ');
  // Answered from the index: no "searched N of M" of a bounded scan.
  await expect(page.getByRole('dialog')).not.toContainText('Searched');
  await search.press('Enter');
  await expect(page).toHaveURL(`${server!.baseURL}${userPath(APP, `cust-${CAROL}`)}`);

  // The agent writes a new session: found once the follower has read it.
  const agent = new Database(agentPath);
  const now = Date.now() / 1000;
  agent
    .prepare('INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)')
    .run(APP, 'cust-new', 'booking-new', JSON.stringify({ profile: { name: 'Carol Nguyen-Okafor' } }), now, now);
  agent.close();
  await expect(async () => {
    await page.goto(`${server!.baseURL}/apps`);
    const again = await openFind(page);
    await again.fill('Nguyen-Okafor');
    await expect(results.getByRole('option')).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await search.press('Enter');
  await expect(page).toHaveURL(`${server!.baseURL}${sessionPath(APP, 'cust-new', 'booking-new')}`);

  // The Events tab answers from the same index: every event of the app, not the newest sessions within a budget.
  await page.goto(`${server!.baseURL}${appPath(APP)}?tab=events&text=parcel+never`);
  const table = page.getByRole('table', { name: `Events of ${APP} containing “parcel never”` });
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.getByRole('link', { name: `Session booking-${CAROL}, event #1` })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: '1 events' })).toContainText('through the text index');

  expect(agentTables()).toEqual(tables);
});
