// Single sign-on end to end in Chromium: a real OpenID provider
// (oidc-provider, started here on a port of its own, with a test client and
// people whose groups the test sets) and a protected console of the spec's
// own configured for it. Sign-in, roles from groups, a person whose groups
// change, no access without a mapped group, the audit naming the person,
// and sign-out, at the provider too (RP-initiated logout). (Forged and
// expired ID tokens: lib/auth/oidc.test.ts.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import Provider from 'oidc-provider';
import { openServices, type OpenedServices } from '../lib/services';
import { APPS_PATH, userApiPath } from '../lib/paths';
import { startConsole, type ConsoleServer } from './support/console-server';

const CLIENT = { client_id: 'statehouse-e2e', client_secret: 'e2e client secret' };
const LABEL = 'Example SSO';
/** Each person's groups at the provider, as the test sets them. */
const groups = new Map<string, string[]>();

test.describe.configure({ mode: 'serial' });

let dir: string;
let services: OpenedServices;
let server: ConsoleServer;
let providerServer: Server;

test.beforeAll(async () => {
  // The provider's address first (the console needs its issuer), its client once the console's address is known.
  providerServer = createServer();
  await new Promise<void>((resolve) => providerServer.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(providerServer.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'statehouse-oidc-'));
  services = await openServices(`file:${join(dir, 'statehouse.db')}`);
  server = await startConsole({
    server: 'ephemeral',
    dir,
    env: {
      STATEHOUSE_AUTH: 'protected',
      STATEHOUSE_OIDC_ISSUER: issuer,
      STATEHOUSE_OIDC_CLIENT_ID: CLIENT.client_id,
      STATEHOUSE_OIDC_CLIENT_SECRET: CLIENT.client_secret,
      STATEHOUSE_OIDC_ROLES: 'statehouse-admins=admin,helpdesk=support,staff=viewer',
      STATEHOUSE_OIDC_LABEL: LABEL,
    },
  });
  const provider = new Provider(issuer, {
    clients: [
      {
        ...CLIENT,
        redirect_uris: [`${server.baseURL}/sign-in/oidc/callback`],
        post_logout_redirect_uris: [`${server.baseURL}/sign-in`],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], profile: ['preferred_username'], groups: ['groups'] },
    findAccount: (_context, id) => ({
      accountId: id,
      claims: () => ({ sub: id, preferred_username: id, groups: groups.get(id) ?? [] }),
    }),
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['e2e cookie key'] },
  });
  const handle = provider.callback();
  providerServer.on('request', (request, response) => void handle(request, response));
});

test.afterAll(async () => {
  await server?.stop();
  await services?.close();
  await new Promise((resolve) => providerServer?.close(resolve));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Through the console's button to the provider; signs in there when it asks (its own session may remember the person). */
async function signInThroughProvider(page: Page, person: string): Promise<void> {
  await page.goto(`${server.baseURL}/sign-in?next=${encodeURIComponent(APPS_PATH)}`);
  await page.getByRole('link', { name: `Sign in with ${LABEL}` }).click();
  // The provider's pages import a web font, which never loads offline: wait for navigations to commit, not to load.
  await page.waitForURL((url) => !url.href.startsWith(`${server.baseURL}/sign-in/oidc`), { waitUntil: 'commit' });
  if (!page.url().startsWith(server.baseURL)) {
    const login = page.locator('input[name="login"]');
    await page.waitForLoadState('domcontentloaded');
    if (await login.isVisible()) {
      await login.fill(person);
      await page.locator('input[name="password"]').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
    }
    const consent = page.getByRole('button', { name: 'Continue' });
    await page.waitForURL((url) => url.href.startsWith(server.baseURL) || url.pathname.includes('interaction'), { waitUntil: 'commit' });
    if (!page.url().startsWith(server.baseURL)) {
      await page.waitForLoadState('domcontentloaded');
      if (await consent.isVisible()) await consent.click();
    }
    await page.waitForURL((url) => url.href.startsWith(server.baseURL), { waitUntil: 'commit' });
  }
}

test('signs in through the provider with the role its groups map to, and the audit names the person', async ({ page }) => {
  groups.set('ada', ['staff', 'helpdesk']);
  await signInThroughProvider(page, 'ada');
  await expect(page).toHaveURL(server.baseURL + APPS_PATH);
  await expect(page.getByText('ada · support')).toBeVisible();

  // A support write through the API with the browser's session: the history names ada.
  const edit = await page.request.patch(server.baseURL + userApiPath('sso-app', 'u1') + '/state', {
    data: { set: { plan: 'pro' }, reason: 'ticket 9' },
    headers: { Origin: server.baseURL },
  });
  expect(edit.status(), await edit.text()).toBe(200);
  const [latest] = (await services.store.getKeyHistory({ appName: 'sso-app', scope: 'user', userId: 'u1', key: 'plan' })).items;
  expect(latest).toMatchObject({ actor: 'ada', newValue: 'pro' });
  // Admin writes stay out of reach for support.
  const appEdit = await page.request.patch(server.baseURL + '/api/apps/sso-app/state', {
    data: { set: { banner: 'x' }, reason: 'try' },
    headers: { Origin: server.baseURL },
  });
  expect(appEdit.status()).toBe(403);
});

test('signs out of the console and of the provider (its end_session_endpoint), so the next sign-in asks again', async ({ page }) => {
  groups.set('ada', ['helpdesk']);
  await signInThroughProvider(page, 'ada');
  await page.getByRole('button', { name: 'Sign out' }).click();
  // The provider asks to confirm ending its own session, then sends the browser back to the console's sign-in page.
  await page.waitForURL((url) => !url.href.startsWith(server.baseURL), { waitUntil: 'commit' });
  await page.waitForLoadState('domcontentloaded');
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${server.baseURL}/sign-in`), { waitUntil: 'commit' });
  expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('statehouse_oidc_id');
  await page.goto(server.baseURL + APPS_PATH);
  await expect(page).toHaveURL(/\/sign-in/);
  // The provider no longer knows ada: it asks her to sign in.
  await page.getByRole('link', { name: `Sign in with ${LABEL}` }).click();
  await page.waitForURL((url) => !url.href.startsWith(server.baseURL), { waitUntil: 'commit' });
  await page.waitForLoadState('domcontentloaded');
  await expect(page.locator('input[name="login"]')).toBeVisible();
});

test('a person whose groups change gets the new role at their next sign-in, and none without a mapped group', async ({ page }) => {
  const sessionCookie = async () => (await page.context().cookies()).find((cookie) => cookie.name === 'statehouse_session')?.value ?? '';
  // Each sign-in below is a new one: the browser forgets the console's cookie (the session stays open in the database).
  groups.set('grace', ['statehouse-admins']);
  await signInThroughProvider(page, 'grace');
  await expect(page.getByText('grace · admin')).toBeVisible();
  const first = await sessionCookie();
  await page.context().clearCookies();

  groups.set('grace', ['staff']);
  await signInThroughProvider(page, 'grace');
  await expect(page.getByText('grace · viewer')).toBeVisible();
  // The role is the account's: the first session is a viewer's now too.
  const asFirst = { headers: { Cookie: `statehouse_session=${first}`, Origin: server.baseURL } };
  expect(
    (
      await page.request.patch(server.baseURL + userApiPath('sso-app', 'u2') + '/state', {
        ...asFirst,
        data: { set: { a: 1 }, reason: 'r' },
      })
    ).status(),
  ).toBe(403);
  await page.context().clearCookies();

  groups.set('grace', ['marketing']);
  await signInThroughProvider(page, 'grace');
  await expect(page).toHaveURL(/\/sign-in\?error=/);
  // (Next's route announcer is an alert too, empty.)
  await expect(page.getByRole('alert').filter({ hasText: 'has no access' })).toContainText('grace has no access');
  // Every session of theirs ended with it.
  expect((await page.request.get(server.baseURL + '/api/apps', asFirst)).status()).toBe(401);
});
