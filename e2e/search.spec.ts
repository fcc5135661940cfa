// Finding an app, a user, a session or a state value from any page: the
// header's Find, `/` and Ctrl-K, arrow keys and Enter.
import { appPath, sessionPath, userPath } from '../lib/paths';
import { expect, test, uniqueName } from './fixtures';

const SEARCH_BOX = 'Search apps, users, sessions and state values';
const FIND_BUTTON = 'Find an app, user, session or state value';

test('the header search finds apps by name and users and sessions by id, from the keyboard', async ({ page, createSession }) => {
  const token = uniqueName('findme').replace(/[^a-z0-9]/g, '');
  const appName = `shop-${token}`;
  const session = await createSession({ appName, userId: `user-${token}`, sessionId: `chat-${token}` });
  await createSession({ appName: uniqueName('other-app'), userId: `visitor-${token}` });

  await page.goto('/preview');
  const search = page.getByRole('combobox', { name: SEARCH_BOX });
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

  await page.getByRole('button', { name: FIND_BUTTON }).click();
  await search.fill('no-such-thing-anywhere-xyz');
  await expect(page.getByRole('dialog').getByRole('status')).toHaveText(
    'No app, user, session or state value matches “no-such-thing-anywhere-xyz”.',
  );
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('button', { name: FIND_BUTTON })).toBeFocused();
  await page.goto(appPath(appName));
});

test('the header search finds a customer by a state value in one step', async ({ page, createSession, setSharedState }) => {
  const token = uniqueName('carol').replace(/[^a-z0-9]/g, '');
  const appName = `support-${token}`;
  const session = await createSession({
    appName,
    userId: `u-${token}`,
    sessionId: `booking-${token}`,
    state: { profile: { name: `Carol Nguyen ${token}`, email: `carol.${token}@example.com` } },
  });
  await setSharedState({ appName, userId: `v-${token}`, state: { phone: `+1 555 0100 ${token}` } });

  await page.goto('/apps');
  await page.getByRole('button', { name: FIND_BUTTON }).click();
  const search = page.getByRole('combobox', { name: SEARCH_BOX });
  await search.fill(`carol nguyen ${token}`);
  const results = page.getByRole('listbox', { name: 'Results' });
  await expect(results.getByRole('option')).toHaveCount(1);
  await expect(results.getByRole('option')).toContainText(`booking-${token}`);
  await expect(results.getByRole('option')).toContainText(`profile: `);
  await expect(results.getByRole('option')).toContainText(`Carol Nguyen ${token}`);
  await search.press('Enter');
  await expect(page).toHaveURL(sessionPath(appName, session.userId, session.id));

  await page.getByRole('button', { name: FIND_BUTTON }).click();
  await search.fill(`0100 ${token}`);
  await expect(results.getByRole('option')).toHaveCount(1);
  await expect(results.getByRole('option')).toContainText('user:phone');
  await search.press('Enter');
  await expect(page).toHaveURL(userPath(appName, `v-${token}`));
});

test('state filters find part of a value, combine, and live in the URL', async ({ page, createSession }) => {
  const appName = uniqueName('refunds');
  await createSession({ appName, userId: 'u-a', sessionId: 'refund-31', state: { topic: 'refund', profile: { age: 31 } } });
  await createSession({ appName, userId: 'u-b', sessionId: 'refund-25', state: { topic: 'Refund (late)', profile: { age: 25 } } });
  await createSession({ appName, userId: 'u-c', sessionId: 'shipping-40', state: { topic: 'shipping', profile: { age: 40 } } });
  const table = page.getByRole('table', { name: `Sessions of ${appName}` });

  // The walk-through's finding: topic=refu found none.
  await page.goto(`${appPath(appName)}?key=topic&value=refu`);
  await expect(table.getByRole('link', { name: 'refund-31' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'refund-25' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'shipping-40' })).toHaveCount(0);

  // A second filter from the form: a nested path and an operator.
  const form = page.getByRole('search', { name: 'Search sessions' });
  await form.getByLabel('State key 2').fill('profile.age');
  await form.getByLabel('Operator 2').selectOption({ label: 'greater than' });
  await form.getByLabel('Value 2').fill('30');
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/key2=profile\.age/);
  await expect(table.getByRole('link', { name: 'refund-25' })).toHaveCount(0);
  await expect(table.getByRole('link', { name: 'refund-31' })).toBeVisible();

  // The URL is the search: opened again, it restores both filters.
  const link = page.url();
  await page.goto('/apps');
  await page.goto(link);
  await expect(form.getByLabel('State key', { exact: true })).toHaveValue('topic');
  await expect(form.getByLabel('Value', { exact: true })).toHaveValue('refu');
  await expect(form.getByLabel('State key 2')).toHaveValue('profile.age');
  await expect(form.getByLabel('Operator 2')).toHaveValue('>');
  await expect(form.getByLabel('Value 2')).toHaveValue('30');
  await expect(table.getByRole('link', { name: 'refund-31' })).toBeVisible();
  await expect(table.getByRole('link', { name: /refund-25|shipping-40/ })).toHaveCount(0);
  await expect(page.getByText(/whose topic contains “refu” and whose profile\.age greater than 30/)).toBeVisible();
});
