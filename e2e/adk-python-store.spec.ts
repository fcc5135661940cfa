// The console over databases adk-python writes (fixtures reproducing its DDL
// and serialisation, lib/testing/adk-fixtures): SqliteSessionService in WAL
// mode, DatabaseSessionService v1 on SQLite (naive local clock) and on
// PostgreSQL (TIMESTAMPTZ) and on MariaDB (LONGTEXT, DATETIME(6)). Each: the banner, three tiers, per-key deltas,
// time travel, browsing that writes nothing, and an append from the page
// that lands in the agent's tables the way adk-python writes it. A store of
// an unknown schema version opens read-only, without write forms.
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { expect, test, type Page } from '@playwright/test';
import { sessionPath } from '../lib/paths';
import { APP, appendPythonSqliteEvent, dumpAgentDatabase, fixtureLabel, type AdkFixtureKind } from '../lib/testing/adk-fixtures';
import { writeAdkFixture } from '../lib/testing/adk-fixtures/stores';
import { testProviders } from '../lib/testing/databases';
import { mysqlAvailable } from '../lib/testing/mysql';
import { startAgentStoreServer, type AgentStoreServer } from './support/agent-store-server';
import type { E2eServer } from './support/ports';
import { appendForm, eventRow, stateEntry } from './support/session-page';

test.describe.configure({ mode: 'serial' });

const paris = sessionPath(APP, 'alice', 'trip-paris');

async function openParis(page: Page, baseURL: string) {
  const live = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/state') && response.ok());
  await page.goto(`${baseURL}${paris}`);
  await live;
}

async function eventData(location: Awaited<ReturnType<typeof writeAdkFixture>>['location'], id: string): Promise<unknown> {
  if ('sqlitePath' in location) {
    const db = new Database(location.sqlitePath, { readonly: true });
    try {
      const row = db.prepare('SELECT event_data FROM events WHERE id = ?').get(id) as { event_data: string } | undefined;
      return row ? JSON.parse(row.event_data) : undefined;
    } finally {
      db.close();
    }
  }
  if ('mysqlUrl' in location) {
    const connection = await mysql.createConnection({ uri: location.mysqlUrl });
    try {
      const rows = (await connection.query('SELECT event_data FROM events WHERE id = ?', [id]))[0] as { event_data: string }[];
      return rows[0] ? JSON.parse(rows[0].event_data) : undefined;
    } finally {
      await connection.end();
    }
  }
  const client = new pg.Client({ connectionString: location.postgresUrl });
  await client.connect();
  try {
    return (await client.query('SELECT event_data FROM events WHERE id = $1', [id])).rows[0]?.event_data;
  } finally {
    await client.end();
  }
}

const kinds: [AdkFixtureKind, E2eServer][] = [
  [{ family: 'py-sqlite', wal: true }, 'adk-python sqlite wal store'],
  [{ family: 'py-db', dialect: 'sqlite', clock: 'local', localOffsetHours: 2 }, 'adk-python db local store'],
  [{ family: 'py-db', dialect: 'postgresql', clock: 'timestamptz' }, 'adk-python db timestamptz store'],
  [{ family: 'py-db', dialect: 'mysql', clock: 'local', localOffsetHours: 2 }, 'adk-python db mysql store'],
];

for (const [kind, consoleName] of kinds) {
  test.describe(fixtureLabel(kind), () => {
    let server: AgentStoreServer | undefined;
    let fixture: Awaited<ReturnType<typeof writeAdkFixture>> | undefined;

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      if (kind.family === 'py-db' && kind.dialect === 'postgresql' && !(await testProviders()).includes('postgresql')) return;
      if (kind.family === 'py-db' && kind.dialect === 'mysql' && !(await mysqlAvailable())) return;
      fixture = await writeAdkFixture(kind);
      const { mkdtempSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const { join } = await import('node:path');
      server = await startAgentStoreServer({
        server: consoleName,
        store: fixture.locator,
        dir: mkdtempSync(join(tmpdir(), 'statehouse-e2e-adkpy-')),
      });
    });

    test.afterAll(async () => {
      await server?.stop();
      await fixture?.remove();
    });

    test('browsing the apps, users and a session shows tiers, deltas and time travel, and writes nothing', async ({ page }) => {
      test.skip(!server, 'its database server is not reachable here');
      const before = await dumpAgentDatabase(fixture!.location);
      await page.goto(`${server!.baseURL}/apps`);
      await expect(page.getByRole('region', { name: 'Served store' }).or(page.getByLabel('Served store'))).toContainText('adk-python');
      await expect(page.getByRole('link', { name: APP })).toBeVisible();
      await page.goto(`${server!.baseURL}/apps/${APP}`);
      await expect(page.getByText('trip-paris').first()).toBeVisible();

      await openParis(page, server!.baseURL);
      await expect(stateEntry(page, 'App state', 'bookings')).toContainText('3');
      await expect(stateEntry(page, 'User state', 'home_city')).toContainText('"Munich"');
      await expect(stateEntry(page, 'Session state', 'destination')).toContainText('"Lyon"');
      await expect(eventRow(page, 1)).toContainText('Plan a trip to Paris');
      await expect(eventRow(page, 2)).toContainText('book_hotel');
      // Event 3's per-key deltas, old value to new.
      await expect(eventRow(page, 3)).toContainText('destination');
      await expect(eventRow(page, 3)).toContainText('"Paris"');
      await expect(eventRow(page, 3)).toContainText('"Lyon"');

      await eventRow(page, 2).getByRole('button', { name: 'Show the state after event 2' }).click();
      await expect(page.getByRole('region', { name: 'Time travel' })).toContainText('event #2');
      await expect(stateEntry(page, 'Session state', 'destination')).toContainText('"Paris"');
      await expect(stateEntry(page, 'User state', 'home_city')).toContainText('"Berlin"');
      await expect(stateEntry(page, 'Session state', 'nights')).toHaveCount(0);
      await page.getByRole('region', { name: 'Time travel' }).getByRole('button', { name: 'Back to now' }).click();
      await expect(stateEntry(page, 'Session state', 'destination')).toContainText('"Lyon"');

      const api = await page.request.get(`${server!.baseURL}/api/apps/${APP}/users/alice/sessions/trip-paris/events?limit=10`);
      expect(api.ok()).toBe(true);
      expect(await dumpAgentDatabase(fixture!.location)).toEqual(before);
    });

    test('an event appended from the page is written as adk-python writes it, and shows up', async ({ page }) => {
      test.skip(!server, 'its database server is not reachable here');
      await openParis(page, server!.baseURL);
      await page.getByRole('button', { name: 'Append an event' }).click();
      const append = appendForm(page);
      await append.getByLabel('Author').fill('support');
      await append.getByLabel('Text').fill('Switch to Nice, s’il vous plaît');
      await append.getByLabel('State delta (JSON object)').fill('{"destination": "Nice", "user:home_city": "Hamburg"}');
      await append.getByRole('button', { name: 'Append event' }).click();
      await expect(append.getByRole('status')).toContainText(/Appended event/);
      await expect(eventRow(page, 4)).toContainText('Switch to Nice');
      await expect(stateEntry(page, 'Session state', 'destination')).toContainText('"Nice"');
      await expect(stateEntry(page, 'User state', 'home_city')).toContainText('"Hamburg"');

      const events = await page.request.get(`${server!.baseURL}/api/apps/${APP}/users/alice/sessions/trip-paris/events?limit=10`);
      const body = (await events.json()) as { items: { event: { id: string } }[] };
      const id = body.items.at(-1)?.event.id ?? '';
      expect(await eventData(fixture!.location, id)).toMatchObject({
        author: 'support',
        content: { parts: [{ text: 'Switch to Nice, s’il vous plaît' }] },
        actions: { state_delta: { destination: 'Nice', 'user:home_city': 'Hamburg' } },
      });
    });

    test('what the agent writes meanwhile shows up within 2 s', async ({ page }) => {
      test.skip(kind.family !== 'py-sqlite' || !server, 'the agent is simulated on the SqliteSessionService file');
      await openParis(page, server!.baseURL);
      await expect(eventRow(page, 4)).toBeVisible();
      const location = fixture!.location as { sqlitePath: string };
      appendPythonSqliteEvent(location.sqlitePath, APP, 'alice', 'trip-paris', {
        id: 'live-1',
        invocation_id: 'inv-live',
        author: 'planner',
        timestamp: Date.now() / 1000,
        content: { role: 'model', parts: [{ text: 'Live from the agent' }] },
        actions: {
          state_delta: { destination: 'Porto' },
          artifact_delta: {},
          requested_auth_configs: {},
          requested_tool_confirmations: {},
        },
      });
      const state = `${server!.baseURL}/api/apps/${APP}/users/alice/sessions/trip-paris/state`;
      await expect
        .poll(async () => ((await (await page.request.get(state)).json()) as { eventCount: number }).eventCount, { timeout: 2_000 })
        .toBe(5);
      await expect(eventRow(page, 5)).toContainText('Live from the agent', { timeout: 2_000 });
      await expect(stateEntry(page, 'Session state', 'destination')).toContainText('"Porto"', { timeout: 2_000 });
    });
  });
}

test.describe('a store of a schema version Statehouse does not write', () => {
  let server: AgentStoreServer | undefined;
  let fixture: Awaited<ReturnType<typeof writeAdkFixture>> | undefined;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    fixture = await writeAdkFixture({ family: 'py-db', dialect: 'sqlite', clock: 'utc', schemaVersion: '2' });
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    server = await startAgentStoreServer({
      server: 'adk-python db schema v2 store',
      store: fixture.locator,
      dir: mkdtempSync(join(tmpdir(), 'statehouse-e2e-adkpy-ro-')),
    });
  });

  test.afterAll(async () => {
    await server?.stop();
    await fixture?.remove();
  });

  test('opens read-only: a banner says why, no write forms, the API answers 409', async ({ page }) => {
    await openParis(page, server!.baseURL);
    await expect(page.getByTestId('read-only-reason')).toContainText('schema_version "2"');
    await expect(stateEntry(page, 'Session state', 'destination')).toContainText('"Lyon"');
    await expect(page.getByRole('button', { name: 'Append an event' })).toHaveCount(0);
    const refused = await page.request.post(`${server!.baseURL}/api/apps/${APP}/users/alice/sessions/trip-paris/events`, {
      data: { author: 'support', actions: { stateDelta: { x: 1 } } },
    });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/read-only/);
  });
});
