// Finding an app, a user or a session from any page: the header's Find,
// `/` and Ctrl-K, arrow keys and Enter.
import { appPath, sessionPath, userPath } from '../lib/paths';
import { expect, test, uniqueName } from './fixtures';

test('the header search finds apps by name and users and sessions by id, from the keyboard', async ({ page, createSession }) => {
  const token = uniqueName('findme').replace(/[^a-z0-9]/g, '');
  const appName = `shop-${token}`;
  const session = await createSession({ appName, userId: `user-${token}`, sessionId: `chat-${token}` });
  await createSession({ appName: uniqueName('other-app'), userId: `visitor-${token}` });

  await page.goto('/preview');
  const search = page.getByRole('combobox', { name: 'Search apps, users and sessions' });
  // The shortcut works once the page has hydrated; until then the key press does nothing.
  await expect(async () => {
    await page.keyboard.press('/');
    await expect(search).toBeVisible({ timeout: 1000 });
  }).toPass();
  await expect(search).toBeFocused();
  await search.fill(token);
  const results = page.getByRole('listbox', { name: 'Results' });
  await expect(results.getByRole('option')).toHaveCount(4);
  await expect(results.getByRole('option').filter({ hasText: appName }).first()).toContainText('App');
  await expect(results.getByRole('option', { name: new RegExp(`Session chat-${token}`) })).toContainText(`user-${token} in ${appName}`);

  // Arrow keys choose, Enter opens.
  const options = await results.getByRole('option').allTextContents();
  const target = options.findIndex((text) => text.startsWith('Session'));
  for (let i = 0; i < target; i += 1) await search.press('ArrowDown');
  await expect(results.getByRole('option').nth(target)).toHaveAttribute('aria-selected', 'true');
  await search.press('Enter');
  await expect(page).toHaveURL(sessionPath(appName, session.userId, session.id));

  // Ctrl-K works from inside a text field too; Esc closes and gives focus back.
  await page.getByPlaceholder('Search keys in every column').focus();
  await page.keyboard.press('Control+k');
  await expect(search).toBeFocused();
  await search.fill(`user-${token}`);
  await expect(results.getByRole('option')).toHaveCount(1);
  await search.press('Enter');
  await expect(page).toHaveURL(userPath(appName, session.userId));

  await page.getByRole('button', { name: 'Find an app, user or session' }).click();
  await search.fill('no-such-thing-anywhere-xyz');
  await expect(page.getByRole('dialog').getByRole('status')).toHaveText('No app, user or session matches “no-such-thing-anywhere-xyz”.');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Find an app, user or session' })).toBeFocused();
  await page.goto(appPath(appName));
});
