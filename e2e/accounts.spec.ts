// The admin's accounts page on the protected server: create an account and
// a token (shown once, usable at once), revoke it; non-admins are refused.
import { expect, PASSWORD, signIn, test, uniqueName } from './auth-fixtures';

test('an admin creates an account and a token, which works until revoked', async ({
  page,
  request,
  protectedUrl,
  createAccount,
  accounts,
}) => {
  const admin = await createAccount('admin');
  await signIn(page, protectedUrl, admin.name, '/admin/accounts');
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();

  const name = uniqueName('e2e-new').slice(0, 60);
  const form = page.getByRole('form', { name: 'New account' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Password').fill('short');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(form.getByText('must be at least 12 characters')).toBeVisible();
  await expect(form.getByLabel('Name')).toHaveValue(name); // kept after a refusal

  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByLabel('Role').selectOption('support');
  await form.getByRole('button', { name: 'Create account' }).click();
  const row = page.getByRole('listitem', { name: `Account ${name}` });
  await expect(row).toBeVisible();
  expect(await accounts.findAccount(name)).toMatchObject({ role: 'support', disabled: false });

  await row.getByLabel('Token label').fill('e2e-agent');
  await row.getByRole('button', { name: 'Create token' }).click();
  const secret = (await row.getByRole('status').locator('code').textContent()) ?? '';
  expect(secret).toMatch(/^sht_/);
  const listApps = () =>
    request.get(`${protectedUrl}/api/list-apps`, { headers: { authorization: `Bearer ${secret}` }, failOnStatusCode: false });
  expect((await listApps()).status()).toBe(200);

  await row.getByRole('button', { name: /^Revoke #/ }).click();
  await expect(row.getByText('revoked')).toBeVisible();
  expect((await listApps()).status()).toBe(401);

  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row.getByText('disabled', { exact: true })).toBeVisible();
  expect(await accounts.findAccount(name)).toMatchObject({ disabled: true });
  await accounts.deleteAccount(name);
});

test('a support account cannot manage accounts', async ({ page, protectedUrl, createAccount }) => {
  const support = await createAccount('support');
  await signIn(page, protectedUrl, support.name, '/admin/accounts');
  await expect(page.getByRole('alert').filter({ hasText: 'needs the admin role' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'New account' })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' })).toHaveCount(0);
});
