// Talking to the agent from the console (issue 28) with the real adk-js API
// server running the example agent and its scripted model over the store the
// console serves: adk-js's DatabaseSessionService on SQLite and PostgreSQL, and
// Statehouse's own store through StatehouseSessionService. A message sent from
// the session page comes back as the agent's events, each a timeline row
// (matched by id) with its state delta.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { comparePath, sessionApiPath, sessionPath } from '../lib/paths';
import { createScratchDatabase, testProviders, type ScratchDatabase } from '../lib/testing/databases';
import { AGENT_APP, startAgentApiServer, type AgentApiServer, type AgentStore } from './support/agent-api-server';
import { startConsole, type ConsoleServer } from './support/console-server';
import type { E2eServer } from './support/ports';
import { eventRow, stateEntry, timelineRows } from './support/session-page';

const providers = await testProviders();

interface Variant {
  name: string;
  agentServer: E2eServer;
  console: E2eServer;
  /** The agent's store, and how the console is pointed at it. */
  open(dir: string): Promise<{ store: AgentStore; consoleEnv: Record<string, string>; remove(): Promise<void> }>;
}

const VARIANTS: Variant[] = [
  ...providers.map((provider): Variant => ({
    name: `adk-js on ${provider}`,
    agentServer: provider === 'sqlite' ? 'agent api server sqlite' : 'agent api server postgresql',
    console: provider === 'sqlite' ? 'agent chat console sqlite' : 'agent chat console postgresql',
    async open() {
      const database: ScratchDatabase = await createScratchDatabase(provider, 'h7agent');
      const path = database.url.startsWith('file:') ? database.url.slice('file:'.length) : null;
      return {
        store: { kind: 'adk-js', sessionServiceUri: path ? `sqlite://${path}` : database.url },
        consoleEnv: { STATEHOUSE_STORE: path ?? database.url },
        remove: () => database.remove(),
      };
    },
  })),
  {
    name: 'Statehouse’s own store',
    agentServer: 'agent api server native',
    console: 'agent chat console native',
    async open(dir) {
      return {
        store: { kind: 'native', databaseUrl: `file:${join(dir, 'statehouse.db')}` },
        consoleEnv: {},
        remove: async () => undefined,
      };
    },
  },
];

for (const variant of VARIANTS) {
  test.describe(`talking to the agent: ${variant.name}`, () => {
    test.describe.configure({ mode: 'serial' });

    let dir: string;
    let agent: AgentApiServer;
    let server: ConsoleServer;
    let remove: () => Promise<void> = async () => undefined;
    /** The session the first test talked in: the next ones branch from it. */
    let talked: { userId: string; sessionId: string } | undefined;

    test.beforeAll(async () => {
      test.setTimeout(180_000);
      dir = mkdtempSync(join(tmpdir(), 'statehouse-e2e-agent-'));
      const opened = await variant.open(dir);
      remove = opened.remove;
      agent = await startAgentApiServer(variant.agentServer, opened.store);
      // A session first: it also makes adk-js create its tables, which the console then recognises.
      await agent.createSession('warm-up', { 'user:name': 'Warm' });
      server = await startConsole({
        server: variant.console,
        dir,
        env: { ...opened.consoleEnv, STATEHOUSE_AGENT_SERVERS: JSON.stringify([{ app: AGENT_APP, url: agent.url }]) },
        readyPath: '/apps',
      });
    });

    test.afterAll(async () => {
      await server?.stop();
      await agent?.stop();
      await remove();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function openSession(page: Page, userId: string): Promise<string> {
      const sessionId = await agent.createSession(userId, { 'user:name': 'Ada', topic: 'evening plans' });
      await page.goto(`${server.baseURL}${sessionPath(AGENT_APP, userId, sessionId)}`);
      await expect(page.getByRole('heading', { name: 'Talk to the agent' })).toBeVisible();
      return sessionId;
    }

    async function send(page: Page, text: string) {
      await page.getByLabel('Message to the agent, as the user').fill(text);
      await page.getByRole('button', { name: 'Send' }).click();
    }

    test('a message sent from the session page comes back as the agent’s events, one timeline row each, with their deltas', async ({
      page,
    }) => {
      const user = `ada-${test.info().workerIndex}-${Date.now().toString(36)}`;
      talked = { userId: user, sessionId: await openSession(page, user) };
      await expect(page.getByText('through ' + agent.url)).toBeVisible();
      await send(page, 'I like jazz.');
      await expect(page.getByRole('status').filter({ hasText: 'The agent answered with 3 events.' })).toBeVisible({ timeout: 15_000 });
      // Within a second of the answer's end, every event the agent wrote is a row of the timeline.
      const streamed = page.getByRole('list', { name: "The agent's events" }).getByRole('listitem');
      await expect(streamed).toHaveCount(3);
      await expect(eventRow(page, 4)).toBeVisible({ timeout: 1000 });
      await expect(timelineRows(page)).toHaveCount(4);
      // The user's message (#1, written by the agent's runner), the tool call, its response, the reply.
      await expect(eventRow(page, 1)).toContainText('I like jazz.');
      await expect(eventRow(page, 2)).toContainText('remember_preference');
      await expect(streamed.nth(1)).toContainText('sets user:preferences');
      await expect(streamed.nth(2)).toContainText('Noted, Ada: I’ll remember you like jazz.'.replace('’', "'"));
      // Each streamed event names its row: matched by event id.
      for (const [index, seq] of [2, 3, 4].entries()) {
        await expect(streamed.nth(index).getByRole('button', { name: `Event #${seq} in the timeline` })).toBeVisible();
      }
      await expect(stateEntry(page, 'User state', 'preferences')).toContainText('jazz');
      // The send is logged: who sent what, and how it ended.
      await page.getByText('Sent from the console (1)').click();
      await expect(page.getByRole('list', { name: 'Sent from the console' })).toContainText('“I like jazz.” — answered (3 events)');
      await expect(stateEntry(page, 'Session state', 'last_answer')).toContainText('Noted, Ada');

      // A second turn reads the state the first one wrote; the rows keep coming, none twice.
      await send(page, 'What do you remember about me?');
      await expect(page.getByRole('status').filter({ hasText: 'The agent answered with 1 event.' })).toBeVisible({ timeout: 15_000 });
      await expect(timelineRows(page)).toHaveCount(6);
      await expect(eventRow(page, 6)).toContainText('You like:');
      await expect(eventRow(page, 6)).toContainText('jazz');
      await streamed.first().getByRole('button', { name: 'Event #6 in the timeline' }).click();
      await expect(page).toHaveURL(/event=6/);
    });

    test('re-run from an event as a what-if: a branch with changed state, the original unchanged, both side by side in three clicks', async ({
      page,
      request,
    }) => {
      if (!talked) throw new Error('The first test did not talk to the agent.');
      const original = { appName: AGENT_APP, ...talked };
      await page.goto(`${server.baseURL}${sessionPath(AGENT_APP, talked.userId, talked.sessionId)}`);
      await expect(timelineRows(page)).toHaveCount(6, { timeout: 15_000 });
      // 1: the event to branch after.
      await eventRow(page, 4).getByRole('button', { name: 'Show the state after event 4' }).click();
      await expect(page).toHaveURL(/event=4/);
      // 2: re-run from it; the message is the user message that followed #4.
      await page.getByRole('button', { name: 'Re-run from #4…' }).click();
      await expect(page.getByLabel('Message (the user message that followed #4)')).toHaveValue('What do you remember about me?');
      // What if the session's topic had been another?
      await page.getByLabel('Session state changes on the branch (JSON object, optional)').fill('{"topic": "hiking"}');
      // 3: branch, send and compare.
      await page.getByRole('button', { name: 'Branch, send and compare' }).click();
      await expect(page).toHaveURL(/\/compare\?/, { timeout: 20_000 });
      const fork = { appName: AGENT_APP, userId: talked.userId, sessionId: new URL(page.url()).searchParams.get('session2') ?? '' };
      expect(page.url()).toBe(`${server.baseURL}${comparePath(original, fork)}`);
      await expect(page.getByTestId('shared-events')).toHaveText('Both start with the same 4 events; then they part.');
      const topic = page.getByRole('region', { name: /^Session state/ }).getByRole('row', { name: /topic/ });
      await expect(topic).toHaveAttribute('data-standing', 'changed');
      await expect(topic).toContainText('"evening plans"');
      await expect(topic).toContainText('"hiking"');
      // The branch ran the same turn: the user message (with the state change the agent's runner applied) and the reply.
      const branchEvents = page.getByRole('list', { name: `session ${fork.sessionId}: 2 events after that` }).getByRole('listitem');
      await expect(branchEvents.first()).toContainText('What do you remember about me?');
      await expect(branchEvents.first()).toContainText('sets topic');

      // The original never changed.
      const stored = await request.get(`${server.baseURL}${sessionApiPath(original)}`);
      const session = (await stored.json()) as { events: unknown[]; state: Record<string, unknown> };
      expect(session.events).toHaveLength(6);
      expect(session.state.topic).toBe('evening plans');
    });
  });
}
