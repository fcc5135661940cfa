// The write paths in protected mode: each role is offered what the API lets
// it do (the actions' own refusals are unit-tested in lib/actions), and the
// audit trail names the signed-in account.
import type { Page } from '@playwright/test';
import { userPath } from '../lib/paths';
import { expect, signIn, test } from './auth-fixtures';
import { appendForm, sessionUrl, stateEntry } from './support/session-page';

async function editPlan(page: Page, value: string, reason: string) {
  await page.getByRole('button', { name: 'Edit user:plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user:plan' });
  await dialog.getByLabel('Value (JSON)').fill(value);
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByRole('button', { name: 'Review change' }).click();
  await dialog.getByRole('button', { name: 'Confirm and save' }).click();
  return dialog;
}

test('a viewer is offered no writes: state tables are read-only and say which role edits them', async ({
  page,
  service,
  protectedUrl,
  createSession,
  signInAs,
}) => {
  const session = await createSession({ state: { 'user:plan': 'free' } });
  const { appName, userId } = session;
  await signInAs('viewer', userPath(appName, userId));

  await expect(page.getByRole('listitem', { name: 'plan', exact: true })).toContainText('"free"');
  await expect(page.getByText('Editing it needs the support role.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit user:plan' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add key' })).toHaveCount(0);

  await page.goto(protectedUrl + sessionUrl(session));
  await expect(stateEntry(page, 'User state', 'plan')).toContainText('"free"');
  await expect(page.getByRole('button', { name: 'Append an event' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit user:plan' })).toHaveCount(0);
  // Reading is still everything: the template preview works.
  await expect(page.getByRole('region', { name: 'Template preview' })).toBeVisible();
  expect((await service.getUserState(appName, userId)).map((entry) => entry.value)).toEqual(['free']);
});

test('support edits user state under their own name, but not app state', async ({
  page,
  service,
  protectedUrl,
  createSession,
  signInAs,
}) => {
  const { appName, userId } = await createSession({ state: { 'user:plan': 'free' } });
  const support = await signInAs('support', userPath(appName, userId));

  await editPlan(page, '"pro"', 'ticket 4');
  await expect(page.getByRole('status').filter({ hasText: 'Saved user:plan.' })).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'plan', exact: true })).toContainText(`edited by ${support.name} — “ticket 4”`);
  const [latest] = (await service.getKeyHistory({ appName, scope: 'user', userId, key: 'plan' })).items;
  expect(latest).toMatchObject({ actor: support.name, reason: 'ticket 4', newValue: 'pro' });

  await page.goto(`${protectedUrl}/apps/${encodeURIComponent(appName)}`);
  await expect(page.getByText('Editing it needs the admin role.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add key' })).toHaveCount(0);
  expect(await service.getAppState(appName)).toEqual([]);
});

test('support cannot change app state through an event: not from the form, not through the API', async ({
  page,
  request,
  service,
  protectedUrl,
  createAccount,
  createSession,
}) => {
  const session = await createSession({ state: { 'app:escalation_email': 'team@example.com' } });
  const { appName, userId } = session;
  const support = await createAccount('support');
  const refused = 'Forbidden: changing app: keys (app state) needs the admin role.';
  await signIn(page, protectedUrl, support.name, sessionUrl(session));

  await page.getByRole('button', { name: 'Append an event' }).click();
  const form = appendForm(page);
  await form.getByLabel('State delta (JSON object)').fill('{"app:escalation_email": "attacker@evil.example"}');
  // Warned before sending, in the preview.
  await expect(form.getByRole('alert').filter({ hasText: 'cannot change app: keys' })).toContainText('remove app:escalation_email');
  await form.getByRole('button', { name: 'Append event' }).click();
  await expect(form.getByText(refused).first()).toBeVisible();

  const api = `${protectedUrl}/api/apps/${encodeURIComponent(appName)}/users/${encodeURIComponent(userId)}/sessions/${encodeURIComponent(session.id)}`;
  const headers = { authorization: `Bearer ${support.token}` };
  const delta = { 'app:escalation_email': 'attacker@evil.example' };
  const answers = [
    await request.post(`${api}/events`, { headers, data: { author: 'user', actions: { stateDelta: delta } }, failOnStatusCode: false }),
    await request.patch(api, { headers, data: { stateDelta: delta }, failOnStatusCode: false }),
    await request.post(`${api}-2`, { headers, data: delta, failOnStatusCode: false }),
  ];
  for (const answer of answers) {
    expect(answer.status()).toBe(403);
    expect(await answer.json()).toEqual({ detail: refused });
  }
  expect((await service.getAppState(appName)).map((entry) => entry.value)).toEqual(['team@example.com']);
  expect((await service.getSession({ appName, userId, sessionId: session.id }))?.events).toHaveLength(0);
});
