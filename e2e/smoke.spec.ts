import { expect, test, uniqueName } from './fixtures';

test('the apps page lists an app once it has sessions', async ({ page, createSession }) => {
  // A space, a slash and a non-ASCII letter: the link must carry the name encoded.
  const appName = uniqueName('e2e smoke/ü');
  const appLink = page.getByRole('link', { name: appName, exact: true });

  await page.goto('/');
  await expect(page).toHaveURL('/apps'); // the root opens the apps list
  await expect(page.getByRole('heading', { level: 1, name: 'Apps' })).toBeVisible();
  await expect(appLink).toHaveCount(0);

  await createSession({ appName });
  await createSession({ appName });
  await page.reload();

  await expect(appLink).toHaveAttribute('href', `/apps/${encodeURIComponent(appName)}`);
  const cells = page.getByRole('row').filter({ has: appLink }).getByRole('cell');
  await expect(cells.nth(1)).toHaveText('2'); // sessions
  await expect(cells.nth(2)).toHaveText('2'); // users: each session got its own
});

test('an unknown address shows the not-found page', async ({ page }) => {
  const response = await page.goto(`/${uniqueName('no-such-page')}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();

  await page.getByRole('link', { name: 'Back to all apps' }).click();
  await expect(page).toHaveURL('/apps');
  await expect(page.getByRole('heading', { level: 1, name: 'Apps' })).toBeVisible();
});
