// Whose address the sign-in throttle counts: the socket's, and a forwarded
// address only from a configured proxy (STATEHOUSE_TRUSTED_PROXIES). The
// spec plays clients and a proxy at different loopback addresses against a
// protected console of its own, replaying the browser's sign-in action.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { openServices, type OpenedServices } from '../lib/services';
import { BUDGETS } from '../lib/auth/sign-in-throttle';
import { startConsole, type ConsoleServer } from './support/console-server';
import { captureAction, send, withFormFields, type Sent } from './support/replay';

const PASSWORD = 'client address password';
const PROXY = '127.0.0.3';

test.describe.configure({ mode: 'serial' });

let dir: string;
let services: OpenedServices;
let server: ConsoleServer;
let signInAction: Sent;

type Outcome = 'in' | 'wrong' | 'throttled';

async function attempt(name: string, password: string, options: { from?: string; forwardedFor?: string } = {}): Promise<Outcome> {
  const answer = await send(signInAction, {
    from: options.from,
    headers: options.forwardedFor === undefined ? {} : { 'x-forwarded-for': options.forwardedFor },
    body: withFormFields(signInAction.body, { name, password }),
  });
  const cookies = [answer.headers['set-cookie'] ?? []].flat();
  if (cookies.some((cookie) => cookie.startsWith('statehouse_session='))) return 'in';
  if (answer.text.includes('Too many failed attempts')) return 'throttled';
  if (answer.text.includes('Wrong account name or password')) return 'wrong';
  throw new Error(`Unexpected answer ${answer.status}: ${answer.text.slice(0, 500)}`);
}

function randomAddress(): string {
  return `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
}

test.beforeAll(async ({ browser }) => {
  dir = mkdtempSync(join(tmpdir(), 'statehouse-client-address-'));
  services = await openServices(`file:${join(dir, 'statehouse.db')}`);
  await services.accounts.createAccount({ name: 'owner-admin', password: PASSWORD, role: 'admin' });
  await services.accounts.createAccount({ name: 'owner-viewer', password: PASSWORD, role: 'viewer' });
  server = await startConsole({
    server: 'client address console',
    dir,
    env: { STATEHOUSE_AUTH: 'protected', STATEHOUSE_TRUSTED_PROXIES: PROXY },
  });
  // Both owners sign in once in the browser (from 127.0.0.1), which makes that address known to their accounts.
  for (const name of ['owner-admin', 'owner-viewer']) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.baseURL}/sign-in`);
    await page.getByLabel('Account name').fill(name);
    await page.getByLabel('Password').fill(PASSWORD);
    signInAction = await captureAction(page, () => page.getByRole('button', { name: 'Sign in' }).click());
    await expect(page).not.toHaveURL(/sign-in/);
    await context.close();
  }
});

test.afterAll(async () => {
  await server?.stop();
  await services?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('60 names sprayed under made-up forwarded addresses: only the free attempts are checked', async () => {
  const outcomes: Outcome[] = [];
  for (let index = 0; index < 60; index += 1) {
    outcomes.push(await attempt(`sprayed-${index}`, 'a guess', { from: '127.0.0.2', forwardedFor: randomAddress() }));
  }
  // The free attempts, and one now and then as a doubling wait runs out on a busy machine.
  const checked = outcomes.filter((outcome) => outcome === 'wrong').length;
  expect(checked).toBeGreaterThanOrEqual(BUDGETS.address.free);
  expect(checked).toBeLessThanOrEqual(BUDGETS.address.free + 3);
  // Another forwarded address does not make the same socket someone else; another socket is.
  expect(await attempt('sprayed-again', 'a guess', { from: '127.0.0.2', forwardedFor: randomAddress() })).toBe('throttled');
  expect(await attempt('sprayed-again', 'a guess', { from: '127.0.0.5' })).toBe('wrong');
});

test('a stranger naming the owners’ address in X-Forwarded-For cannot lock them out', async () => {
  for (let index = 0; index < 40; index += 1) {
    await attempt(`spoofed-${index}`, 'a guess', { from: '127.0.0.4', forwardedFor: '127.0.0.1' });
  }
  for (let index = 0; index < 15; index += 1) {
    await attempt('owner-admin', 'a guess', { from: '127.0.0.4', forwardedFor: '127.0.0.1' });
    await attempt('owner-viewer', 'a guess', { from: '127.0.0.4', forwardedFor: '127.0.0.1' });
  }
  expect(await attempt('owner-admin', PASSWORD)).toBe('in');
  expect(await attempt('owner-viewer', PASSWORD)).toBe('in');
});

test('behind a trusted proxy the client is the right-most hop it did not add, and an owner there is never locked out', async () => {
  // The owner signs in through the proxy once: 198.51.100.9 becomes known to the account.
  expect(await attempt('owner-admin', PASSWORD, { from: PROXY, forwardedFor: '198.51.100.9' })).toBe('in');
  // A stranger behind the same proxy claims the owner's address; the proxy appends the stranger's own.
  const stranger = { from: PROXY, forwardedFor: '198.51.100.9, 203.0.113.7' };
  const outcomes: Outcome[] = [];
  for (let index = 0; index < 30; index += 1) outcomes.push(await attempt(`proxied-${index}`, 'a guess', stranger));
  for (let index = 0; index < 15; index += 1) outcomes.push(await attempt('owner-admin', 'a guess', stranger));
  // Counted under the stranger's own address, not the owner's it claimed.
  expect(outcomes.filter((outcome) => outcome === 'wrong').length).toBeLessThanOrEqual(BUDGETS.address.free + 3);
  expect(await attempt('owner-admin', PASSWORD, { from: PROXY, forwardedFor: '198.51.100.9' })).toBe('in');
  expect(await attempt('proxied-more', 'a guess', { from: PROXY, forwardedFor: '203.0.113.7' })).toBe('throttled');
  // Others behind the proxy, at the address the stranger claimed too, have budgets of their own.
  expect(await attempt('at-the-owners-address', 'a guess', { from: PROXY, forwardedFor: '198.51.100.9' })).toBe('wrong');
  expect(await attempt('proxied-other', 'a guess', { from: PROXY, forwardedFor: '192.0.2.50' })).toBe('wrong');
});
