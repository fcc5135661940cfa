// Protected mode in the real browser and over HTTP: sign-in, roles, tokens,
// cookies; and the local server's guard against other host names.
import { expect, PASSWORD, test, uniqueName } from './auth-fixtures';

test.describe('protected mode', () => {
  test('sends a stranger to sign in, then back where they were going', async ({ page, protectedUrl, createAccount, createSession }) => {
    const session = await createSession();
    const account = await createAccount('viewer');
    const target = `/apps/${encodeURIComponent(session.appName)}`;

    await page.goto(protectedUrl + target);
    await expect(page).toHaveURL(`${protectedUrl}/sign-in?next=${encodeURIComponent(target)}`);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

    await page.getByLabel('Account name').fill(account.name);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Wrong' })).toHaveText(
      'Wrong account name or password, or the account is disabled.',
    );
    await expect(page.getByLabel('Account name')).toHaveValue(account.name);

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(protectedUrl + target);
    await expect(page.getByRole('heading', { level: 1, name: session.appName })).toBeVisible();

    const [cookie] = await page.context().cookies(protectedUrl);
    expect(cookie).toMatchObject({ name: 'statehouse_session', httpOnly: true, sameSite: 'Lax', secure: true });
    expect(cookie?.value).toMatch(/^shs_/);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(`${protectedUrl}/sign-in`);
    await page.goto(protectedUrl + target);
    await expect(page).toHaveURL(/\/sign-in\?next=/);
  });

  test('never redirects off-site after sign-in', async ({ page, protectedUrl, createAccount }) => {
    test.setTimeout(120_000); // seven sign-ins
    const account = await createAccount('viewer');
    // Each resolves (dot segments collapsed, `\\` read as `/`, `%2F` decoded) to a protocol-relative URL.
    const offSite = [
      '//evil.example/steal',
      '/..//evil.example',
      '/./\\evil.example',
      '/.//evil.example/path',
      '/%2e%2e//evil.example',
      '/x/..%2F..%2F%2Fevil.example',
      '/apps/..//evil.example',
    ];
    for (const next of offSite) {
      await page.context().clearCookies();
      await page.goto(`${protectedUrl}/sign-in?next=${encodeURIComponent(next)}`);
      await page.getByLabel('Account name').fill(account.name);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page, `after signing in with next=${next}`).toHaveURL(`${protectedUrl}/apps`);
      // Signed in, the sign-in page sends the person on at once: the same check.
      await page.goto(`${protectedUrl}/sign-in?next=${encodeURIComponent(next)}`);
      await expect(page, `signed in, next=${next}`).toHaveURL(`${protectedUrl}/apps`);
    }
  });

  test('asks the API for a token, and checks each role', async ({ request, protectedUrl, createAccount, createSession }) => {
    const session = await createSession();
    const [viewer, support, admin] = [await createAccount('viewer'), await createAccount('support'), await createAccount('admin')];
    const sessionUrl = `${protectedUrl}/api/apps/${encodeURIComponent(session.appName)}/users/${encodeURIComponent(session.userId)}/sessions/${encodeURIComponent(session.id)}`;
    const as = (account: { token: string } | null) => ({
      headers: account ? { authorization: `Bearer ${account.token}` } : ({} as Record<string, string>),
      failOnStatusCode: false,
    });

    const anonymous = await request.get(sessionUrl, as(null));
    expect(anonymous.status()).toBe(401);
    expect(await anonymous.json()).toEqual({ detail: expect.stringContaining('Sign-in required') });
    const forged = await request.get(sessionUrl, { headers: { authorization: 'Bearer sht_forged' }, failOnStatusCode: false });
    expect(forged.status()).toBe(401);

    expect((await request.get(sessionUrl, as(viewer))).status()).toBe(200);
    const viewerPatch = await request.patch(sessionUrl, { ...as(viewer), data: { stateDelta: { x: 1 } } });
    expect(viewerPatch.status()).toBe(403);
    expect(await viewerPatch.json()).toEqual({ detail: 'Forbidden: this needs the support role.' });

    expect((await request.patch(sessionUrl, { ...as(support), data: { stateDelta: { x: 1 } } })).status()).toBe(200);
    expect((await request.delete(sessionUrl, as(support))).status()).toBe(403);
    const appState = `${protectedUrl}/api/apps/${encodeURIComponent(session.appName)}/state`;
    const edit = { set: { banner: 'hi' }, reason: 'e2e' };
    expect((await request.patch(appState, { ...as(support), data: edit })).status()).toBe(403);
    expect((await request.patch(appState, { ...as(admin), data: edit })).status()).toBe(200);

    // The audit trail names the token's account, whatever the body claims.
    const history = await request.get(`${appState.replace(/\/state$/, '')}/history?scope=app&key=banner`, as(viewer));
    expect(history.status()).toBe(200);
    expect(JSON.stringify(await history.json())).toContain(admin.name);

    expect((await request.delete(sessionUrl, as(admin))).status()).toBe(200);
  });
});

test.describe('local mode', () => {
  test('refuses requests addressed to another host name (DNS rebinding)', async ({ request }) => {
    const response = await request.get('/api/list-apps', { headers: { host: 'attacker.example' }, failOnStatusCode: false });
    expect(response.status()).toBe(403);
    expect(await response.json()).toEqual({ detail: expect.stringContaining('only answers requests addressed to localhost') });
  });

  test('serves pages with a nonce-based Content-Security-Policy and renders hostile state as text', async ({ page, createSession }) => {
    const hostile = '<img src=x onerror="window.__pwned=1">';
    const session = await createSession({ userId: uniqueName('u'), state: { [hostile]: hostile, 'user:name': hostile } });
    const response = await page.goto(
      `/apps/${encodeURIComponent(session.appName)}/users/${encodeURIComponent(session.userId)}/sessions/${encodeURIComponent(session.id)}`,
    );
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    await expect(page.getByText(hostile).first()).toBeVisible();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });
});

test.describe('cross-site requests', () => {
  test('a server action posted from another origin is refused and writes nothing', async ({ page, request, service, createSession }) => {
    const session = await createSession();
    const ref = { appName: session.appName, userId: session.userId, sessionId: session.id };
    await page.goto(
      `/apps/${encodeURIComponent(session.appName)}/users/${encodeURIComponent(session.userId)}/sessions/${encodeURIComponent(session.id)}`,
    );
    await page.getByRole('button', { name: 'Append an event' }).click();
    const form = page.getByRole('region', { name: 'Append an event', exact: true });
    await form.getByLabel('Text').fill('first');

    // The browser's own request, captured to be replayed as another site would send it.
    const sent = page.waitForRequest((candidate) => candidate.method() === 'POST' && candidate.headers()['next-action'] !== undefined);
    await form.getByRole('button', { name: 'Append event' }).click();
    const action = await sent;
    await expect(form.getByRole('status')).toContainText('Appended event');
    expect((await service.getSessionSummary(ref))?.eventCount).toBe(1);

    const replay = (origin: string) =>
      request.post(action.url(), {
        headers: { ...action.headers(), origin },
        data: action.postDataBuffer() ?? '',
        failOnStatusCode: false,
      });
    // The page sent revision 0: from the console's own origin the replay reaches the action, which refuses it as stale.
    const sameSite = await replay(new URL(action.url()).origin);
    expect(await sameSite.text()).toContain('STALE_SESSION');
    const crossSite = await replay('http://evil.example');
    expect(crossSite.status()).toBe(403);
    expect(await crossSite.json()).toEqual({ detail: expect.stringContaining('Forbidden: origin not allowed (http://evil.example)') });
    expect((await service.getSessionSummary(ref))?.eventCount).toBe(1);
  });
});
