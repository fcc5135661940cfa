// The apps, app and user pages follow what agents write while they are open,
// as the session page does: new sessions, counts and shared state appear
// without a reload.
import { appPath, userPath } from '../lib/paths';
import { expect, test, uniqueName } from './fixtures';

test('the apps page shows a new app and new counts without a reload', async ({ page, createSession }) => {
  const appName = uniqueName('e2e-live-app');
  await page.goto('/apps');
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  const link = page.getByRole('link', { name: appName, exact: true });
  await expect(link).toHaveCount(0);

  await createSession({ appName });
  await expect(link).toBeVisible({ timeout: 15_000 });
  const sessions = page.getByRole('row').filter({ has: link }).getByRole('cell').nth(1);
  await expect(sessions).toHaveText('1');
  await createSession({ appName });
  await expect(sessions).toHaveText('2', { timeout: 15_000 });
});

test('the app page shows new sessions and app state changes without a reload', async ({ page, createSession, setSharedState }) => {
  const first = await createSession();
  const { appName } = first;
  await page.goto(appPath(appName));
  await expect(page.getByRole('link', { name: first.id, exact: true })).toBeVisible();

  const second = await createSession({ appName, userId: uniqueName('late-user') });
  await expect(page.getByRole('link', { name: second.id, exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('navigation', { name: 'App lists' }).getByRole('link', { name: /^Sessions/ })).toContainText('2');

  await setSharedState({ appName, state: { banner: 'maintenance tonight' } });
  await expect(page.getByRole('list', { name: 'App state', exact: true }).getByRole('listitem', { name: 'banner' })).toContainText(
    '"maintenance tonight"',
    { timeout: 15_000 },
  );
});

test('the user page shows new sessions and user state changes without a reload', async ({ page, createSession, setSharedState }) => {
  const first = await createSession({ state: { 'user:plan': 'free' } });
  const { appName, userId } = first;
  await page.goto(userPath(appName, userId));
  const plan = page.getByRole('list', { name: 'User state', exact: true }).getByRole('listitem', { name: 'plan' });
  await expect(plan).toContainText('"free"');

  const second = await createSession({ appName, userId });
  await expect(page.getByRole('link', { name: second.id, exact: true })).toBeVisible({ timeout: 15_000 });

  await setSharedState({ appName, userId, state: { plan: 'pro' } });
  await expect(plan).toContainText('"pro"', { timeout: 15_000 });
  // The history, read in the browser, follows too.
  await expect(page.getByRole('list', { name: 'Changes to this user’s state' }).getByRole('listitem').first()).toContainText('"pro"', {
    timeout: 15_000,
  });
});
