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

test('support fixes a user’s plan with a reason, confirms the diff and finds it in the history', async ({
  page,
  service,
  createSession,
}) => {
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
  await expect(dialog.getByText('A reason is required: say why you are changing this state, e.g. a ticket number.')).toBeVisible();
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
  test.setTimeout(90_000); // a 2 MiB value typed and checked in the browser
  const { appName, userId } = await createSession({ state: { 'user:plan': 'free' } });
  const historyBefore = (await service.getUserHistory(appName, userId)).total;
  await page.goto(userPath(appName, userId));

  await page.getByRole('button', { name: 'Edit user:plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user:plan' });
  const value = dialog.getByLabel('Value (JSON)');
  await value.fill('{"tier": "pro",\n}');
  await expect(
    dialog.getByText('Malformed JSON at line 2, column 1: expected a double-quoted property name, got character "}"'),
  ).toBeVisible();
  await expect(value).toHaveAttribute('aria-invalid', 'true');
  await value.fill('pro');
  await expect(dialog.getByText('Malformed JSON at line 1, column 1: unexpected character "p", expected a JSON value')).toBeVisible();
  // Text meant as a string: one click quotes it.
  await value.fill('enterprise plan');
  await dialog.getByRole('button', { name: 'Use as a string: "enterprise plan"' }).click();
  await expect(value).toHaveValue('"enterprise plan"');
  await expect(value).not.toHaveAttribute('aria-invalid', 'true');
  await value.fill(JSON.stringify('x'.repeat(2 * 1024 * 1024)));
  await expect(dialog.getByText(/MiB of JSON \([\d,]+ bytes\), over the 2 MiB limit/)).toBeVisible();
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
  await add.getByLabel('Key').fill('temp:plan');
  await expect(add.getByText(/never stored/)).toBeVisible();
  await add.getByRole('button', { name: 'Cancel' }).click();

  expect(await userValue(service, appName, userId, 'plan')).toBe('free');
  expect((await service.getUserHistory(appName, userId)).total).toBe(historyBefore);
});

test('Add key takes a key typed with its tier’s prefix or spaces as the key meant, and refuses other tiers’ prefixes', async ({
  page,
  service,
  createSession,
}) => {
  test.setTimeout(90_000); // five dialogs on two pages
  const { appName, userId } = await createSession({ state: { 'user:plan': 'free' } });
  await page.goto(userPath(appName, userId));
  const addKey = async (key: string) => {
    await page.getByRole('button', { name: 'Add key' }).click();
    const add = page.getByRole('dialog', { name: /^Add a key to/ });
    await add.getByLabel('Key').fill(key);
    await add.getByLabel('Value (JSON)').fill('"x"');
    await add.getByLabel('Reason').fill('copied from what the agent sees');
    return add;
  };

  // The tier's own prefix and surrounding spaces: dropped, with a note that stays on the review.
  const add = await addKey(' user:nick ');
  await expect(
    add.getByText('Saved as user:nick: spaces around it removed; “user:” is this tier’s prefix, not part of the key.'),
  ).toBeVisible();
  await add.getByRole('button', { name: 'Review change' }).click();
  await expect(add.getByRole('listitem', { name: 'user:nick added' })).toBeVisible();
  await expect(add.getByText(/^Saved as user:nick/)).toBeVisible();
  await add.getByRole('button', { name: 'Confirm and save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved user:nick.' })).toBeVisible();

  // Another tier's prefix: refused next to the field, nothing to review.
  for (const [key, message] of [
    ['temp:scratch', /“temp:” keys last one invocation and are never stored/],
    ['app:leak', /“app:” keys are app state, shared by every user: add them on the app’s page/],
  ] as const) {
    const refused = await addKey(key);
    await expect(refused.getByText(message)).toBeVisible();
    await refused.getByRole('button', { name: 'Review change' }).click();
    await expect(refused.getByRole('list', { name: 'Changes to confirm' })).toHaveCount(0);
    await refused.getByRole('button', { name: 'Cancel' }).click();
  }
  expect((await service.getUserState(appName, userId)).map((entry) => entry.key)).toEqual(['nick', 'plan']);

  // The app page: app: is the tier's prefix, user: belongs to a user.
  await page.goto(appPath(appName));
  const appAdd = await addKey('user:plan');
  await expect(appAdd.getByText(/“user:” keys belong to one user/)).toBeVisible();
  await appAdd.getByLabel('Key').fill('app:tone');
  await appAdd.getByRole('button', { name: 'Review change' }).click();
  await expect(appAdd.getByRole('listitem', { name: 'app:tone added' })).toBeVisible();
  await appAdd.getByRole('button', { name: 'Confirm and save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved app:tone.' })).toBeVisible();
  expect((await service.getAppState(appName)).map((entry) => entry.key)).toEqual(['tone']);
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

  await expect(dialog.getByRole('alert')).toContainText(
    'Not saved: Someone changed this state since you opened the edit; nothing was saved.',
  );
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

test('app state: add a key and remove it, each with a reason and the number of sessions that read it', async ({
  page,
  service,
  createSession,
}) => {
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
  expect((await service.getAppState(appName)).map((entry) => [entry.key, entry.value])).toEqual([
    ['tone', { style: 'warm', emoji: false }],
  ]);

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

test('the session page’s user column edits user state now, and every column follows; the past is read-only', async ({
  page,
  service,
  createSession,
}) => {
  const session = await createSession({ state: { 'user:plan': 'free' } });
  const { appName, userId } = session;
  await appendEvents(service, session, [stateDeltaEvent('agent', { topic: 'billing' })]);
  await openSession(page, session);

  await stateEntry(page, 'User state', 'plan').getByRole('button', { name: 'Edit user:plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user:plan' });
  await dialog.getByLabel('Value (JSON)').fill('"pro"');
  await dialog.getByLabel('Reason').fill('ticket 11');
  await dialog.getByRole('button', { name: 'Review change' }).click();
  await expect(dialog.getByTestId('session-reach')).toContainText('1 session reads this state');
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

test('the session page’s app column edits app state, as the app page does', async ({ page, service, createSession }) => {
  const session = await createSession({ state: { 'app:tone': 'warm' } });
  await openSession(page, session);
  await stateEntry(page, 'App state', 'tone').getByRole('button', { name: 'Edit app:tone' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit app:tone' });
  await dialog.getByLabel('Value (JSON)').fill('"formal"');
  await dialog.getByLabel('Reason').fill('brand review');
  await dialog.getByRole('button', { name: 'Review change' }).click();
  await dialog.getByRole('button', { name: 'Confirm and save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved app:tone.' })).toBeVisible();
  await expect(stateEntry(page, 'What the agent sees', 'app:tone')).toContainText('"formal"');
  expect((await service.getAppState(session.appName)).map((entry) => entry.value)).toEqual(['formal']);
});
