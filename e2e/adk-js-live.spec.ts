// An adk-js agent writing live: a Runner with the example's scripted model
// persists through adk-js's DatabaseSessionService into a SQLite file while
// the console, serving that file, has the session page open. Each turn's
// events and state must show within 2 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Runner } from '@google/adk';
import { expect, test } from '@playwright/test';
import { APP_NAME, createConciergeAgent } from '../examples/adk-agent/agent';
import { ScriptedConciergeModel } from '../examples/adk-agent/scripted-model';
import { sessionPath } from '../lib/paths';
import { adkJsService } from '../lib/testing/adk-fixtures';
import { startAgentStoreServer, type AgentStoreServer } from './support/agent-store-server';
import { eventRow, stateEntry } from './support/session-page';

const LIVE_MS = 2_000;

let dir: string;
let server: AgentStoreServer;
let adk: Awaited<ReturnType<typeof adkJsService>>;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'statehouse-e2e-adkjs-live-'));
  const file = join(dir, 'agent.db');
  adk = await adkJsService(`file:${file}`);
  await adk.createSession({ appName: APP_NAME, userId: 'ada', sessionId: 'live-1', state: { 'user:name': 'Ada', topic: 'evening plans' } });
  server = await startAgentStoreServer({ server: 'adk-js live store', store: file, dir });
});

test.afterAll(async () => {
  await adk?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a Runner writing through adk-js shows up on the open session page within 2 s', async ({ page }) => {
  const live = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/state') && response.ok());
  await page.goto(`${server.baseURL}${sessionPath(APP_NAME, 'ada', 'live-1')}`);
  await live;
  await expect(page.getByRole('heading', { level: 2, name: 'Events' })).toBeVisible();
  await expect(stateEntry(page, 'User state', 'name')).toContainText('"Ada"');

  const runner = new Runner({ appName: APP_NAME, agent: createConciergeAgent(new ScriptedConciergeModel()), sessionService: adk });
  /** One turn through the Runner; the session's event count afterwards, as adk-js reads it. */
  const turn = async (text: string) => {
    for await (const _event of runner.runAsync({ userId: 'ada', sessionId: 'live-1', newMessage: { role: 'user', parts: [{ text }] } })) {
      // The Runner persists each event as it yields it.
    }
    return (await adk.getSession({ appName: APP_NAME, userId: 'ada', sessionId: 'live-1' }))?.events.length ?? 0;
  };

  // The user's message, the tool call, its response and the reply; user:preferences and last_answer set.
  const first = await turn('Hi! I like jazz.');
  expect(first).toBeGreaterThanOrEqual(3);
  await expect(eventRow(page, first)).toContainText('remember you like jazz', { timeout: LIVE_MS });
  await expect(stateEntry(page, 'User state', 'preferences')).toContainText('jazz', { timeout: LIVE_MS });
  await expect(stateEntry(page, 'Session state', 'last_answer')).toContainText('jazz', { timeout: LIVE_MS });

  const second = await turn('Any plans for tonight?');
  await expect(eventRow(page, second)).toContainText('(scripted) Ada', { timeout: LIVE_MS });
  await expect(eventRow(page, first + 1)).toContainText('Any plans for tonight?', { timeout: LIVE_MS });
});
