// Read-only mode (STATEHOUSE_READ_ONLY=1) on a console of the spec's own, as
// an operator runs it: pages offer no write control, the API refuses writes
// with 403 and a detail, and every server action of the build, posted by
// hand with its id from the build's manifest, answers READ_ONLY. Nothing
// changes in the database.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { openServices, type OpenedServices } from '../lib/services';
import { ACCOUNTS_PATH, appPath, sessionApiPath, sessionPath, userApiPath, userPath } from '../lib/paths';
import { startConsole, type ConsoleServer } from './support/console-server';
import { projectRoot } from './support/database';

const ref = { appName: 'read-only app', userId: 'someone', sessionId: 'session-1' };
/** The buttons of the pages below that only read. */
const READ_CONTROLS = /^(Copy|Search|Filter|All time|Last 7 days|Today)$/;
/** Actions that read-only mode leaves open. */
const OPEN_ACTIONS = new Set(['signIn', 'signOut']);

test.describe.configure({ mode: 'serial' });

let dir: string;
let services: OpenedServices;
let server: ConsoleServer;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'statehouse-read-only-'));
  services = await openServices(`file:${join(dir, 'statehouse.db')}`);
  await services.store.createSession({ ...ref, state: { 'user:plan': 'free', topic: 'tea' } });
  server = await startConsole({ server: 'ephemeral', dir, env: { STATEHOUSE_READ_ONLY: '1' }, readyPath: '/apps' });
});

test.afterAll(async () => {
  await server?.stop();
  await services?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function snapshot() {
  return {
    session: await services.store.getSession(ref),
    userState: await services.store.getUserState(ref.appName, ref.userId),
  };
}

test('pages offer no write control and say the console is read-only', async ({ page }) => {
  for (const path of [
    appPath(ref.appName),
    userPath(ref.appName, ref.userId),
    sessionPath(ref.appName, ref.userId, ref.sessionId),
    ACCOUNTS_PATH,
  ]) {
    await page.goto(server.baseURL + path);
    await expect(page.getByRole('status', { name: 'Read-only mode' })).toBeVisible();
    // Every button left is one that reads (a new read control joins this list; a write control fails here).
    for (const name of await page.locator('main').getByRole('button').allInnerTexts()) expect(name.trim()).toMatch(READ_CONTROLS);
  }
  // Reading is still everything: the template preview (a POST that writes nothing) works.
  await page.goto(server.baseURL + sessionPath(ref.appName, ref.userId, ref.sessionId));
  await expect(page.getByRole('region', { name: 'Template preview' })).toBeVisible();
});

test('API writes answer 403 with a detail; reads and the template preview answer', async ({ request }) => {
  const before = await snapshot();
  const user = server.baseURL + userApiPath(ref.appName, ref.userId);
  const session = server.baseURL + sessionApiPath(ref);
  const writes = [
    request.post(`${session}/events`, { data: { author: 'user', content: { parts: [{ text: 'hi' }] } } }),
    request.patch(`${user}/state`, { data: { stateDelta: { plan: 'pro' } } }),
    request.post(`${user}/sessions`, { data: { state: {} } }),
    request.delete(session),
    request.post(`${session}/prune`, { data: { dryRun: true } }),
  ];
  for (const response of await Promise.all(writes)) {
    expect(response.status(), response.url()).toBe(403);
    expect(((await response.json()) as { detail: string }).detail).toContain('read-only');
  }
  expect((await request.get(session)).status()).toBe(200);
  const render = await request.post(`${server.baseURL}/api/render`, {
    data: { template: 'Plan: {user:plan}', state: { 'user:plan': 'free' } },
  });
  expect(render.status()).toBe(200);
  expect(await snapshot()).toEqual(before);
});

test('every server action of the build, posted by hand, answers READ_ONLY', async ({ request }) => {
  const before = await snapshot();
  const manifest = JSON.parse(readFileSync(join(projectRoot, '.next', 'server', 'server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { exportedName: string; workers: Record<string, unknown> }>;
  };
  const values: Record<string, string> = { app: ref.appName, user: ref.userId, session: ref.sessionId };
  const posted: string[] = [];
  for (const [id, action] of Object.entries(manifest.node)) {
    if (OPEN_ACTIONS.has(action.exportedName)) continue;
    // A page that carries the action: Next looks the id up in the page the request is for.
    const page = Object.keys(action.workers)[0] ?? '';
    const path = page
      .replace(/^app/, '')
      .replace(/\/page$/, '')
      .replace(/\[(\w+)\]/g, (_whole, name: string) => encodeURIComponent(values[name] ?? name));
    const response = await request.post(server.baseURL + (path || '/'), {
      headers: { 'Next-Action': id, Accept: 'text/x-component', Origin: server.baseURL, 'Content-Type': 'text/plain;charset=UTF-8' },
      data: JSON.stringify([{ ...ref, revision: 0, text: 'by hand', scope: 'user', changes: [{ key: 'plan', value: 'pro' }] }]),
    });
    expect({ action: action.exportedName, status: response.status(), text: await response.text() }).toMatchObject({
      action: action.exportedName,
      status: 200,
      text: expect.stringContaining('"code":"READ_ONLY"') as unknown,
    });
    posted.push(action.exportedName);
  }
  expect(posted).toEqual(expect.arrayContaining(['appendEvent', 'editState', 'forkSession', 'pruneSessions', 'createAccount']));
  expect(await snapshot()).toEqual(before);
});
