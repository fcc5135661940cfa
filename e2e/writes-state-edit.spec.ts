// Support edits of user and app state: a required reason, a confirmed diff
// with how many sessions read the state, the key history, validation next
// to each field, and a conflict when someone else changed the key meanwhile.
// Every test checks the database as well as the page.
import type { Page } from '@playwright/test';
import { LOCAL_OPERATOR } from '../lib/auth/principal';
import { appPath, userPath } from '../lib/paths';
import type { SessionStore } from '../lib/session-service';
import { appendEvents, stateDeltaEvent } from '../lib/testing/factories';
import { expect, test, uniqueName } from './fixtures';
import { eventRow, openSession, stateEntry } from './support/session-page';

async function userValue(service: SessionStore, appName: string, userId: string, key: string) {
  return (await service.getUserState(appName, userId)).find((entry) => entry.key === key)?.value;
}

function stateRow(page: Page, table: string, key: string) {
  return page.getByRole('list', { name: table, exact: true }).getByRole('listitem', { name: key, exact: true });
}

test('support fixes a user’s plan with a reason, confirms the diff and finds it in the history', async ({ page, service, createSession }) => {
  const first = await createSession({ userId: uniqueName('user'), state: { 'user:plan': 'free', topic: 'billing' } });
  const { appName, userId } = first;
  await createSession({ appName, userId });
  const eventsBefore = await service.listEvents({ appName, userId, sessionId: first.id });

  await page.goto(userPath(appName, userId));
  await expect(stateRow(page, 'User state', 'plan')).toContainText('"free"');
  await page.getByRole('button', { name: 'Edit user:plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user:plan' });
  await dialog.getByLabel('Value (JSON)').fill('"pro"');

  // The reason is required: asked for next to the field, nothing sent.
  await dialog.getByRole('button', { name: 'Review change' }).click();
  await expect(dialog.getByText('is required: say why you are changing this state')).toBeVisible();
  await dialog.getByLabel('Reason').fill('ticket 7: upgraded by phone');
  await dialog.getByRole('button', { name: 'Review change' }).click();

  const diff = dialog.getByRole('list', { name: 'Changes to confirm' });
  await expect(diff.getByRole('listitem', { name: 'user:plan changed' })).toContainText('"free"→becomes"pro"');
  await expect(dialog.getByTestId('session-reach')).toContainText(`2 sessions read this state (user ${userId})`);
  expect(await userValue(service, appName, userId, 'plan')).toBe('free');

  await dialog.getByRole('button', { name: 'Confirm and save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Saved user:plan.' })).toBeVisible();
  const row = stateRow(page, 'User state', 'plan');
  await expect(row).toContainText('"pro"');
  await expect(row).toContainText(`edited by ${LOCAL_OPERATOR} — “ticket 7: upgraded by phone”`);

  expect(await userValue(service, appName, userId, 'plan')).toBe('pro');
  const [latest] = (await service.getKeyHistory({ appName, scope: 'user', userId, key: 'plan' })).items;
  expect(latest).toMatchObject({ actor: LOCAL_OPERATOR, reason: 'ticket 7: upgraded by phone', oldValue: 'free', newValue: 'pro' });
  // The edit is in the history, not in the log: events stay as they were.
  expect(await service.listEvents({ appName, userId, sessionId: first.id })).toEqual(eventsBefore);

  // Per key...
  await page.getByRole('button', { name: 'History of user:plan' }).click();
  const keyHistory = row.getByRole('list', { name: 'History of user:plan' });
  await expect(keyHistory.getByRole('listitem')).toHaveCount(2);
  await expect(keyHistory.getByRole('listitem').first()).toContainText('ticket 7: upgraded by phone');
  await expect(keyHistory.getByRole('listitem').nth(1)).toContainText(`initial state of session ${first.id}`);
  // ...and per user: what changed for this user today.
  const today = page.getByRole('list', { name: 'Changes to this user’s state' });
  await expect(today.getByRole('listitem', { name: 'user:plan changed' })).toContainText(`edited by ${LOCAL_OPERATOR}`);

  // Another session of the same user reads the new value.
  const other = (await service.listSessions({ appName, userId })).sessions.find((session) => session.id !== first.id);
  expect(other?.state['user:plan']).toBe('pro');
});

test('invalid edits are refused next to the field and write nothing', async ({ page, service, createSession }) => {
  const { appName, userId } = await createSession({ state: { 'user:plan': 'free' } });
  const historyBefore = (await service.getUserHistory(appName, userId)).total;
  await page.goto(userPath(appName, userId));

  await page.getByRole('button', { name: 'Edit user:plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user:plan' });
  const value = dialog.getByLabel('Value (JSON)');
  await value.fill('{"tier": "pro",\n}');
  await expect(dialog.getByText('Malformed JSON at line 2, column 1: expected a double-quoted property name, got character "}"')).toBeVisible();
  await expect(value).toHaveAttribute('aria-invalid', 'true');
  await value.fill('pro');
  await expect(dialog.getByText('Malformed JSON at line 1, column 1: unexpected character "p", expected a JSON value')).toBeVisible();
  await value.fill(JSON.stringify('x'.repeat(2 * 1024 * 1024)));
  await expect(dialog.getByText(/bytes of JSON, over the 2097152-byte limit/)).toBeVisible();
  await dialog.getByLabel('Reason').fill('trying');
  await dialog.getByRole('button', { name: 'Review change' }).click();
  await expect(dialog.getByRole('list', { name: 'Changes to confirm' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Add key' }).click();
  const add = page.getByRole('dialog', { name: /^Add a key to/ });
  await add.getByLabel('Value (JSON)').fill('1');
  await add.getByLabel('Reason').fill('r');
  await add.getByRole('button', { name: 'Review change' }).click();
  await expect(add.getByText('keys must not be empty')).toBeVisible();
  await add.getByLabel('Key').fill('user:plan');
  await expect(add.getByText('Agents will read this key as user:user:plan.')).toBeVisible();
  await add.getByRole('button', { name: 'Cancel' }).click();

  expect(await userValue(service, appName, userId, 'plan')).toBe('free');
  expect((await service.getUserHistory(appName, userId)).total).toBe(historyBefore);
});

test('an edit of a key someone changed meanwhile is refused, rolled back and kept as typed', async ({ page, service, createSession }) => {
  const { appName, userId } = await createSession({ state: { 'user:plan': 'free' } });
  await page.goto(userPath(appName, userId));
  await page.getByRole('button', { name: 'Edit user:plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user:plan' });
  await dialog.getByLabel('Value (JSON)').fill('"pro"');
  await dialog.getByLabel('Reason').fill('ticket 9');
  await dialog.getByRole('button', { name: 'Review change' }).click();
  await expect(dialog.getByRole('listitem', { name: 'user:plan changed' })).toContainText('"free"');

  // Another operator gets there first.
  await service.editState({ scope: 'user', appName, userId, changes: { plan: 'team' }, actor: 'other operator', reason: 'ticket 8' });
  await dialog.getByRole('button', { name: 'Confirm and save' }).click();

  await expect(dialog.getByRole('alert')).toContainText('Not saved: Someone changed this state since you opened the edit; nothing was saved.');
  // The diff now starts from what is stored; the table shows it, not the rejected value.
  await expect(dialog.getByRole('listitem', { name: 'user:plan changed' })).toContainText('"team"→becomes"pro"');
  await expect(stateRow(page, 'User state', 'plan')).toContainText('"team"');
  expect(await userValue(service, appName, userId, 'plan')).toBe('team');

  // What the person typed is all still there.
  await dialog.getByRole('button', { name: 'Back to edit' }).click();
  await expect(dialog.getByLabel('Value (JSON)')).toHaveValue('"pro"');
  await expect(dialog.getByLabel('Reason')).toHaveValue('ticket 9');
  await dialog.getByRole('button', { name: 'Review change' }).click();
  await dialog.getByRole('button', { name: 'Confirm and save' }).click();
  // Shown at once (optimistic), then saved.
  await expect(stateRow(page, 'User state', 'plan')).toContainText('"pro"');
  await expect(page.getByRole('status').filter({ hasText: 'Saved user:plan.' })).toBeVisible();

  const history = (await service.getKeyHistory({ appName, scope: 'user', userId, key: 'plan' })).items;
  expect(history.map((change) => [change.newValue, change.actor])).toEqual([
    ['pro', LOCAL_OPERATOR],
    ['team', 'other operator'],
    ['free', 'session:create'],
  ]);
});

test('app state: add a key and remove it, each with a reason and the number of sessions that read it', async ({ page, service, createSession }) => {
  const appName = uniqueName('e2e-app');
  await createSession({ appName });
  await createSession({ appName });
  await createSession({ appName });
  await page.goto(appPath(appName));

  await page.getByRole('button', { name: 'Add key' }).click();
  const add = page.getByRole('dialog', { name: `Add a key to ${appName}’s app state` });
  await add.getByLabel('Key').fill('tone');
  await add.getByLabel('Value (JSON)').fill('{"style": "warm", "emoji": false}');
  await add.getByLabel('Reason').fill('launch copy');
  await add.getByRole('button', { name: 'Review change' }).click();
  await expect(add.getByRole('listitem', { name: 'app:tone added' })).toContainText('absent→becomes{"style":"warm","emoji":false}');
  await expect(add.getByTestId('session-reach')).toContainText(`3 sessions read this state (every user of ${appName})`);
  await add.getByRole('button', { name: 'Confirm and save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved app:tone.' })).toBeVisible();
  await expect(stateRow(page, 'App state', 'tone')).toContainText(`edited by ${LOCAL_OPERATOR} — “launch copy”`);
  expect((await service.getAppState(appName)).map((entry) => [entry.key, entry.value])).toEqual([['tone', { style: 'warm', emoji: false }]]);

  await page.getByRole('button', { name: 'Remove app:tone' }).click();
  const remove = page.getByRole('dialog', { name: 'Remove app:tone' });
  await remove.getByLabel('Reason').fill('campaign over');
  await remove.getByRole('button', { name: 'Review change' }).click();
  await expect(remove.getByRole('listitem', { name: 'app:tone removed' })).toBeVisible();
  await remove.getByRole('button', { name: 'Confirm and remove' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Removed app:tone.' })).toBeVisible();
  await expect(stateRow(page, 'App state', 'tone')).toHaveCount(0);
  await expect(page.getByText('No app state')).toBeVisible();

  expect(await service.getAppState(appName)).toEqual([]);
  const history = (await service.getKeyHistory({ appName, scope: 'app', key: 'tone' })).items;
  expect(history.map((change) => [change.oldValue === undefined, change.newValue === undefined, change.reason])).toEqual([
    [false, true, 'campaign over'],
    [true, false, 'launch copy'],
  ]);
});

test('the session page’s user column edits user state now, and every column follows; the past is read-only', async ({ page, service, createSession }) => {
  const session = await createSession({ state: { 'user:plan': 'free' } });
  const { appName, userId } = session;
  await appendEvents(service, session, [stateDeltaEvent('agent', { topic: 'billing' })]);
  await openSession(page, session);

  await stateEntry(page, 'User state', 'plan').getByRole('button', { name: 'Edit user:plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user:plan' });
  await dialog.getByLabel('Value (JSON)').fill('"pro"');
  await dialog.getByLabel('Reason').fill('ticket 11');
  await dialog.getByRole('button', { name: 'Review change' }).click();
  await expect(dialog.getByTestId('session-reach')).toContainText('One session reads this state');
  await dialog.getByRole('button', { name: 'Confirm and save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved user:plan.' })).toBeVisible();

  await expect(stateEntry(page, 'User state', 'plan')).toContainText(`edited by ${LOCAL_OPERATOR} — “ticket 11”`);
  await expect(stateEntry(page, 'What the agent sees', 'user:plan')).toContainText('"pro"');
  expect(await userValue(service, appName, userId, 'plan')).toBe('pro');

  // As of an event the columns show the past, which an edit cannot change.
  await eventRow(page, 1).getByRole('button', { name: 'Show the state after event 1' }).click();
  await expect(stateEntry(page, 'User state', 'plan')).toContainText('"free"');
  await expect(page.getByRole('button', { name: 'Edit user:plan' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add key' })).toHaveCount(0);
});
