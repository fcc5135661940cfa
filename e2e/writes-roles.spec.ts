// The write paths in protected mode: each role may do what the API lets it
// do, a refusal is said in the form (which keeps what was typed), and the
// audit trail names the signed-in account.
import type { Page } from '@playwright/test';
import { userPath } from '../lib/paths';
import { expect, PASSWORD, test, type TestAccount } from './auth-fixtures';

async function signIn(page: Page, protectedUrl: string, account: TestAccount, target: string): Promise<void> {
  await page.goto(`${protectedUrl}/sign-in?next=${encodeURIComponent(target)}`);
  await page.getByLabel('Account name').fill(account.name);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(protectedUrl + target);
}

async function editPlan(page: Page, value: string, reason: string) {
  await page.getByRole('button', { name: 'Edit user:plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user:plan' });
  await dialog.getByLabel('Value (JSON)').fill(value);
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByRole('button', { name: 'Review change' }).click();
  await dialog.getByRole('button', { name: 'Confirm and save' }).click();
  return dialog;
}

test('a viewer’s edit is refused with the role it needs, and nothing is written', async ({ page, service, protectedUrl, createAccount, createSession }) => {
  const { appName, userId } = await createSession({ state: { 'user:plan': 'free' } });
  const viewer = await createAccount('viewer');
  await signIn(page, protectedUrl, viewer, userPath(appName, userId));

  const dialog = await editPlan(page, '"pro"', 'ticket 3');
  await expect(dialog.getByRole('alert')).toContainText('Not saved: Forbidden: this needs the support role.');
  // Back at the form, as typed.
  await expect(dialog.getByLabel('Value (JSON)')).toHaveValue('"pro"');
  await expect(dialog.getByLabel('Reason')).toHaveValue('ticket 3');
  expect((await service.getUserState(appName, userId)).map((entry) => entry.value)).toEqual(['free']);
});

test('support edits user state under their own name, but not app state', async ({ page, service, protectedUrl, createAccount, createSession }) => {
  const { appName, userId } = await createSession({ state: { 'user:plan': 'free' } });
  const support = await createAccount('support');
  await signIn(page, protectedUrl, support, userPath(appName, userId));

  await editPlan(page, '"pro"', 'ticket 4');
  await expect(page.getByRole('status').filter({ hasText: 'Saved user:plan.' })).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'plan', exact: true })).toContainText(`edited by ${support.name} — “ticket 4”`);
  const [latest] = (await service.getKeyHistory({ appName, scope: 'user', userId, key: 'plan' })).items;
  expect(latest).toMatchObject({ actor: support.name, reason: 'ticket 4', newValue: 'pro' });

  await page.goto(`${protectedUrl}/apps/${encodeURIComponent(appName)}`);
  await page.getByRole('button', { name: 'Add key' }).click();
  const add = page.getByRole('dialog', { name: /^Add a key to/ });
  await add.getByLabel('Key').fill('banner');
  await add.getByLabel('Value (JSON)').fill('"hello"');
  await add.getByLabel('Reason').fill('try');
  await add.getByRole('button', { name: 'Review change' }).click();
  await add.getByRole('button', { name: 'Confirm and save' }).click();
  await expect(add.getByRole('alert')).toContainText('Not saved: Forbidden: this needs the admin role.');
  expect(await service.getAppState(appName)).toEqual([]);
});
