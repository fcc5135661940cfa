import { expect, test, uniqueName } from './fixtures';
import { eventRow, openSession, sessionUrl, stateColumn, stateEntry, stateKeys } from './support/session-page';
import { appendEvent } from '../lib/session-service/append';

test('shows app, user and session tiers side by side with provenance, and the merged state with each key’s tier', async ({
  page,
  service,
  createSession,
}) => {
  const session = await createSession({ state: { 'app:tone': 'warm', 'user:plan': 'free', topic: 'tea' } });
  await appendEvent(service, session, {
    author: 'billing_agent',
    invocationId: 'e-upgrade',
    actions: { stateDelta: { 'user:plan': 'pro', cart: { items: [{ sku: 'A-1', qty: 2 }], total: 19.5 } } },
  });
  await openSession(page, session);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(session.id);
  await expect(stateEntry(page, 'App state', 'tone')).toContainText('"warm"');
  await expect(stateEntry(page, 'App state', 'tone')).toContainText('initial state of this session');
  await expect(stateEntry(page, 'Session state', 'topic')).toContainText('"tea"');

  // Which event set user:plan: the provenance names it and links to it.
  const plan = stateEntry(page, 'User state', 'plan');
  await expect(plan).toContainText('"pro"');
  await expect(plan).toContainText('set in event #1 by billing_agent');
  await expect(plan.getByRole('link', { name: 'event #1' })).toHaveAttribute('href', sessionUrl(session, '?event=1'));

  // The agent's view: prefixed keys, each with the tier it comes from.
  const merged = stateColumn(page, 'What the agent sees');
  await expect(merged).toBeVisible();
  expect(await stateKeys(page, 'What the agent sees')).toEqual(['cart', 'topic', 'app:tone', 'user:plan']);
  await expect(stateEntry(page, 'What the agent sees', 'user:plan').getByTitle(/^User state/)).toHaveText('user');
  await expect(stateEntry(page, 'What the agent sees', 'app:tone').getByTitle(/^App state/)).toHaveText('app');
  await expect(stateEntry(page, 'What the agent sees', 'cart').getByTitle(/^Session state/)).toHaveText('session');

  // The provenance link selects the event in place (time travel), no reload.
  await plan.getByRole('link', { name: 'event #1' }).click();
  await expect(page).toHaveURL(sessionUrl(session, '?event=1'));
  await expect(page.getByRole('region', { name: 'Time travel' })).toContainText('state right after event #1');
  await expect(eventRow(page, 1)).toHaveAttribute('aria-current', 'true');
});

test('key search filters every column at once', async ({ page, createSession }) => {
  const session = await createSession({ state: { 'app:plan_limits': 1, 'user:plan': 'free', topic: 'tea', plan_note: 'x' } });
  await openSession(page, session);
  await page.getByRole('searchbox', { name: 'Search state keys' }).fill('PLAN');
  await expect(stateColumn(page, 'Session state')).toContainText('1 of 2');
  expect(await stateKeys(page, 'Session state')).toEqual(['plan_note']);
  expect(await stateKeys(page, 'App state')).toEqual(['plan_limits']);
  expect(await stateKeys(page, 'What the agent sees')).toEqual(['plan_note', 'app:plan_limits', 'user:plan']);
  await page.getByRole('searchbox', { name: 'Search state keys' }).fill('nothing-like-this');
  await expect(stateColumn(page, 'User state')).toContainText('No key matches “nothing-like-this”');
});

test('JSON values fold, unfold and copy; long strings are folded', async ({ page, context, createSession }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const long = 'lorem ipsum '.repeat(100);
  const session = await createSession({ state: { profile: { name: 'Ada', address: { city: 'Oslo', zip: '0150' } }, note: long } });
  await openSession(page, session);
  const profile = stateEntry(page, 'Session state', 'profile');

  // Two levels open by default: the address is visible, then collapses to a summary.
  await expect(profile).toContainText('city:');
  await profile.getByRole('button', { name: 'Collapse profile.address' }).click();
  await expect(profile).not.toContainText('city:');
  await expect(profile.getByRole('button', { name: 'Expand profile.address' })).toContainText('{2 keys}');

  await profile.getByRole('button', { name: 'Copy profile', exact: true }).click();
  await expect(profile.getByRole('button', { name: 'Copy profile', exact: true })).toHaveText('Copied');
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual({
    name: 'Ada',
    address: { city: 'Oslo', zip: '0150' },
  });

  const note = stateEntry(page, 'Session state', 'note');
  await expect(note).not.toContainText(long.trim());
  await note.getByRole('button', { name: /^Show all of note/ }).click();
  await expect(note).toContainText(long.trim());
});

test('an unknown session answers 404 with a way back', async ({ page, createSession }) => {
  const session = await createSession();
  const response = await page.goto(sessionUrl({ ...session, id: uniqueName('no-such-session') }));
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Session not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the user’s sessions' }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${encodeURIComponent(session.userId)}$`));
});

test('ids with spaces, URL characters and non-ASCII letters work in the page and its API calls', async ({
  page,
  service,
  createSession,
}) => {
  const session = await createSession({
    appName: uniqueName('app sp ü'),
    userId: uniqueName('user #1?&'),
    sessionId: uniqueName('sess ion %41ü'), // "%41" must stay "%41", not become "A"
    state: { topic: 'tea' },
  });
  await appendEvent(service, session, { author: 'agent', invocationId: 'e-1', actions: { stateDelta: { topic: 'coffee' } } });
  await openSession(page, session);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(session.id);
  await expect(eventRow(page, 1)).toContainText('"tea"');
  await eventRow(page, 1).getByRole('button', { name: 'Show the state after event 1' }).click();
  await expect(stateEntry(page, 'Session state', 'topic').getByText('"coffee"', { exact: true })).toBeVisible();
});
