// Every fault of an agent server, from the session page (issue 28): a server
// that is down, never answers, answers an error, answers something that is
// not an event stream, fails the run mid-stream, has no such session; and a
// send cancelled by the user. Each is a clear message, nothing is written to
// the session, and the page stays usable. A viewer gets no send box and the
// API refuses them; a read-only console shows none and refuses it too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { agentSendPath, sessionPath } from '../lib/paths';
import { openServices, type OpenedServices } from '../lib/services';
import { startMisbehavingServer, type MisbehavingServer } from '../lib/testing/misbehaving-agent-server';
import { PASSWORD, signIn } from './auth-fixtures';
import { startConsole, type ConsoleServer } from './support/console-server';
import { e2eUrl } from './support/ports';
import { timelineRows } from './support/session-page';

test.describe.configure({ mode: 'serial' });

const USER = 'ada';
const FAULTS = ['down', 'hang', 'error-500', 'html', 'session-missing', 'agent-error', 'trickle'] as const;
const appOf = (fault: (typeof FAULTS)[number]) => `fault-${fault}`;

let dir: string;
let services: OpenedServices;
let agent: MisbehavingServer;
let server: ConsoleServer;
let readOnly: ConsoleServer;
const accounts = { support: 'h7-support', viewer: 'h7-viewer' };

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(join(tmpdir(), 'statehouse-e2e-agent-faults-'));
  services = await openServices(`file:${join(dir, 'statehouse.db')}`);
  for (const fault of FAULTS)
    await services.store.createSession({ appName: appOf(fault), userId: USER, sessionId: 's1', state: { topic: 'jazz' } });
  await services.accounts.createAccount({ name: accounts.support, password: PASSWORD, role: 'support' });
  await services.accounts.createAccount({ name: accounts.viewer, password: PASSWORD, role: 'viewer' });
  agent = await startMisbehavingServer('by-app', Number(new URL(e2eUrl('misbehaving agent server')).port));
  const servers = FAULTS.map((fault) => ({
    app: appOf(fault),
    url: fault === 'down' ? e2eUrl('agent server that is down') : agent.url,
    timeoutSeconds: 2,
  }));
  const env = { STATEHOUSE_AGENT_SERVERS: JSON.stringify(servers) };
  server = await startConsole({ server: 'agent faults console', dir, env: { ...env, STATEHOUSE_AUTH: 'protected' } });
  readOnly = await startConsole({
    server: 'agent faults read-only console',
    dir,
    env: { ...env, STATEHOUSE_READ_ONLY: '1' },
    readyPath: '/apps',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await readOnly?.stop();
  await agent?.close();
  await services?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const pathOf = (fault: (typeof FAULTS)[number]) => sessionPath(appOf(fault), USER, 's1');

async function send(page: Page, fault: (typeof FAULTS)[number]) {
  await signIn(page, server.baseURL, accounts.support, pathOf(fault));
  await page.getByLabel('Message to the agent, as the user').fill('I like jazz.');
  await page.getByRole('button', { name: 'Send' }).click();
}

/** Nothing was written to the session, and the page still works: the box takes another message. */
async function expectUsableAndUnchanged(page: Page, fault: (typeof FAULTS)[number]) {
  const events = await services.store.listEvents({ appName: appOf(fault), userId: USER, sessionId: 's1' }, {});
  expect(events.total).toBe(0);
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  // The send log says who sent what and that it failed or was cancelled.
  await page.getByText(/^Sent from the console \(\d+\)$/).click();
  await expect(page.getByRole('list', { name: 'Sent from the console' }).getByRole('listitem').first()).toContainText(
    new RegExp(`${accounts.support}: “I like jazz\\.” — (failed|cancelled)`),
  );
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
  await expect(timelineRows(page)).toHaveCount(0);
}

const MESSAGES: [(typeof FAULTS)[number], RegExp][] = [
  ['down', /could not be reached \(ECONNREFUSED\)\. Nothing was written to the session\./],
  ['hang', /did not start answering within 2 s\. Nothing was written/],
  ['error-500', /answered 500: The model quota is exhausted\./],
  ['html', /answered text\/html, not an event stream\./],
  ['session-missing', /has no session s1 in its store .*is it configured over the store this console serves\?/],
  ['agent-error', /The agent failed: Tool remember_preference raised ValueError \(1 event came before; they are in the timeline\.\)/],
];

for (const [fault, message] of MESSAGES) {
  test(`a send to an agent server that misbehaves (${fault}) says so, writes nothing and leaves the page usable`, async ({ page }) => {
    await send(page, fault);
    await expect(page.getByRole('alert').filter({ hasText: message })).toBeVisible({ timeout: 10_000 });
    await expectUsableAndUnchanged(page, fault);
  });
}

test('a send can be cancelled: the agent server sees the request end, the page says what came before', async ({ page }) => {
  await send(page, 'trickle');
  await expect(page.getByRole('status').filter({ hasText: /so far/ })).toBeVisible();
  const before = agent.hangUps;
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Cancelled after \d+ events?: the agent's run was stopped/ })).toBeVisible();
  await expect.poll(() => agent.hangUps).toBe(before + 1);
  await expectUsableAndUnchanged(page, 'trickle');
});

test('a viewer gets no send box, and the API refuses their send', async ({ page }) => {
  await signIn(page, server.baseURL, accounts.viewer, pathOf('hang'));
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Talk to the agent' })).toHaveCount(0);
  const refused = await page.request.post(`${server.baseURL}${agentSendPath({ appName: appOf('hang'), userId: USER, sessionId: 's1' })}`, {
    data: { text: 'hi' },
    headers: { origin: server.baseURL },
  });
  expect(refused.status()).toBe(403);
});

test('a read-only console shows no send box and refuses the send', async ({ page, request }) => {
  await page.goto(`${readOnly.baseURL}${pathOf('hang')}`);
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Talk to the agent' })).toHaveCount(0);
  const refused = await request.post(`${readOnly.baseURL}${agentSendPath({ appName: appOf('hang'), userId: USER, sessionId: 's1' })}`, {
    data: { text: 'hi' },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { detail: string }).detail).toContain('read-only');
});
