// Keyboard use: a closed dialog gives focus back to the button that opened
// it, and the state lists are one tab stop each (arrow keys move between
// keys), so the timeline is a few Tab presses away, not forty.
import { userPath } from '../lib/paths';
import { expect, test } from './fixtures';
import { openSession } from './support/session-page';

test('closing the edit dialog, by Cancel or Esc, returns focus to the button that opened it', async ({ page, createSession }) => {
  const { appName, userId } = await createSession({ state: { 'user:plan': 'free', 'user:seat': 'aisle' } });
  await page.goto(userPath(appName, userId));

  const edit = page.getByRole('button', { name: 'Edit user:seat' });
  await edit.click();
  await page.getByRole('dialog', { name: 'Edit user:seat' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(edit).toBeFocused();

  await edit.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Edit user:seat' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(edit).toBeFocused();

  const add = page.getByRole('button', { name: 'Add key' });
  await add.click();
  await page.keyboard.press('Escape');
  await expect(add).toBeFocused();
});

test('the state columns are a few tab stops, arrow keys move between keys and Tab reaches the key’s controls', async ({
  page,
  createSession,
}) => {
  test.setTimeout(120_000);
  const state: Record<string, unknown> = {};
  for (let i = 0; i < 10; i += 1) state[`key_${i}`] = { value: i, tags: ['a', 'b'], nested: { deep: true } };
  const session = await createSession({ state: state as never });
  await openSession(page, session);

  await page.getByPlaceholder('Search keys in every column').focus();
  let stops = 0;
  // Until focus reaches the timeline's filters.
  while (stops < 200) {
    await page.keyboard.press('Tab');
    stops += 1;
    const label = await page.evaluate(() => document.activeElement?.getAttribute('placeholder') ?? '');
    if (label === 'user, an agent…') break;
  }
  expect(stops).toBeLessThan(40);

  // The session column: Tab lands on its first key, ArrowDown on the next, whose Copy button is then one Tab away.
  const list = page.getByRole('list', { name: 'Session state', exact: true });
  await list.getByRole('listitem', { name: 'key_0', exact: true }).focus();
  await page.keyboard.press('ArrowDown');
  const second = list.getByRole('listitem', { name: 'key_1', exact: true });
  await expect(second).toBeFocused();
  await page.keyboard.press('Tab');
  const focusedName = await page.evaluate(() => document.activeElement?.textContent ?? '');
  expect(focusedName).toContain('Collapse key_1');
  expect(await second.evaluate((row) => row.contains(document.activeElement))).toBe(true);
});

test('a skip link on the session page takes the keyboard to the timeline in a few presses', async ({ page, createSession }) => {
  const state: Record<string, unknown> = {};
  for (let i = 0; i < 10; i += 1) state[`key_${i}`] = i;
  const session = await createSession({ state: state as never });
  await openSession(page, session);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to the timeline' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  // The next stop is inside the timeline: its filters.
  expect(await page.evaluate(() => document.activeElement?.closest('#timeline') !== null)).toBe(true);
});

test('after Save, focus is on the edited key’s row, not on Add key', async ({ page, createSession }) => {
  const { appName, userId } = await createSession({ state: { 'user:plan': 'free', 'user:seat': 'aisle' } });
  await page.goto(userPath(appName, userId));
  await page.getByRole('button', { name: 'Edit user:plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user:plan' });
  await dialog.getByLabel('Value (JSON)').fill('"pro"');
  await dialog.getByLabel('Reason').fill('focus check');
  await dialog.getByRole('button', { name: 'Review change' }).click();
  await dialog.getByRole('button', { name: 'Confirm and save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved user:plan.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit user:plan' })).toBeFocused();
});
