import { appendEvents, stateDeltaEvent } from '../lib/testing/factories';
import { expect, test } from './fixtures';
import { eventRow, openSession, sessionUrl, stateColumn, stateEntry } from './support/session-page';

/** plan: free → pro → team, topic added at 2, removed from view never (events cannot remove keys). */
async function planHistory(service: Parameters<typeof appendEvents>[0], session: Parameters<typeof appendEvents>[1]) {
  await appendEvents(
    service,
    session,
    [
      stateDeltaEvent('agent', { 'user:plan': 'pro' }),
      stateDeltaEvent('agent', { topic: 'tea', 'app:banner': 'hello' }),
      stateDeltaEvent('agent', { 'user:plan': 'team', topic: 'coffee' }),
    ],
    { startAt: Date.now() / 1000 - 60 },
  );
}

const value = (page: Parameters<typeof stateEntry>[0], column: string, key: string, text: string) =>
  stateEntry(page, column, key).getByText(text, { exact: true });

test('selecting an event shows the state right after it, with a banner and a way back to now', async ({ page, service, createSession }) => {
  const session = await createSession({ state: { 'user:plan': 'free' } });
  await planHistory(service, session);
  await openSession(page, session);
  await expect(value(page, 'User state', 'plan', '"team"')).toBeVisible();

  await eventRow(page, 1).getByRole('button', { name: 'Show the state after event 1' }).click();
  await expect(page).toHaveURL(sessionUrl(session, '?event=1'));
  const banner = page.getByRole('region', { name: 'Time travel' });
  await expect(banner).toContainText('state right after event #1 of 3 by agent');
  await expect(value(page, 'User state', 'plan', '"pro"')).toBeVisible();
  await expect(stateColumn(page, 'Session state')).toContainText('No session state');
  await expect(stateColumn(page, 'App state')).toContainText('No app state');
  // The keys the selected event changed are marked.
  await expect(stateEntry(page, 'What the agent sees', 'user:plan')).toContainText('changed');

  await eventRow(page, 2).getByRole('button', { name: 'Show the state after event 2' }).click();
  await expect(value(page, 'Session state', 'topic', '"tea"')).toBeVisible();
  await expect(value(page, 'App state', 'banner', '"hello"')).toBeVisible();

  await banner.getByRole('button', { name: 'Back to now' }).click();
  await expect(page).toHaveURL(sessionUrl(session));
  await expect(page.getByRole('region', { name: 'Time travel' })).toHaveCount(0);
  await expect(value(page, 'Session state', 'topic', '"coffee"')).toBeVisible();
  await expect(value(page, 'User state', 'plan', '"team"')).toBeVisible();
});

test('a deep link opens at the selected event, in the past', async ({ page, service, createSession }) => {
  const session = await createSession({ state: { 'user:plan': 'free' } });
  await planHistory(service, session);
  await openSession(page, session, '?event=2');
  await expect(page.getByRole('region', { name: 'Time travel' })).toContainText('state right after event #2');
  await expect(eventRow(page, 2)).toHaveAttribute('aria-current', 'true');
  await expect(eventRow(page, 2).getByRole('button', { name: 'Back to the state now (leave event 2)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(value(page, 'What the agent sees', 'topic', '"tea"')).toBeVisible();
  await expect(value(page, 'What the agent sees', 'user:plan', '"pro"')).toBeVisible();

  // The browser's back button returns to where the operator was.
  await eventRow(page, 3).getByRole('button', { name: 'Show the state after event 3' }).click();
  await expect(page).toHaveURL(sessionUrl(session, '?event=3'));
  await page.goBack();
  await expect(page).toHaveURL(sessionUrl(session, '?event=2'));
  await expect(eventRow(page, 2)).toHaveAttribute('aria-current', 'true');
});

test('compares the state after two events', async ({ page, service, createSession }) => {
  const session = await createSession({ state: { 'user:plan': 'free' } });
  await planHistory(service, session);
  await openSession(page, session, '?event=3');
  await eventRow(page, 1).getByRole('button', { name: 'Compare the state after event 1 with the selected event' }).click();
  await expect(page).toHaveURL(sessionUrl(session, '?event=3&compare=1'));

  const diff = page.getByRole('list', { name: 'State changes from event 1 to event 3' });
  const heading = page.getByRole('heading', { name: 'From event #1 to event #3' });
  await expect(heading).toBeInViewport();
  // Brought into view below the sticky banner, not under it.
  const banner = await page.getByRole('region', { name: 'Time travel' }).boundingBox();
  const top = await heading.boundingBox();
  expect(banner && top && top.y >= banner.y + banner.height).toBe(true);
  await expect(diff.getByRole('listitem')).toHaveCount(3);
  await expect(diff.getByRole('listitem', { name: 'user:plan' })).toHaveText(/changed.*"pro"\s*→\s*"team"/);
  await expect(diff.getByRole('listitem', { name: 'topic' })).toHaveText(/added.*\(absent\)\s*→\s*"coffee"/);
  await expect(diff.getByRole('listitem', { name: 'app:banner' })).toHaveText(/added.*"hello"/);

  // The same comparison from the banner's form, and a deep link to it.
  await page.getByRole('spinbutton', { name: 'Compare with event #' }).fill('2');
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(page).toHaveURL(sessionUrl(session, '?event=3&compare=2'));
  await page.reload();
  const reloaded = page.getByRole('list', { name: 'State changes from event 2 to event 3' });
  await expect(reloaded.getByRole('listitem')).toHaveCount(2);
  await page.getByRole('button', { name: 'Stop comparing' }).click();
  await expect(page).toHaveURL(sessionUrl(session, '?event=3'));
});

test('an event that does not exist says so in the banner', async ({ page, service, createSession }) => {
  const session = await createSession();
  await planHistory(service, session);
  await openSession(page, session, '?event=99');
  await expect(page.getByRole('region', { name: 'Time travel' })).toContainText('event #99 could not be loaded (404: Event 99 not found');
  await page.getByRole('button', { name: 'Back to now' }).click();
  await expect(page).toHaveURL(sessionUrl(session));
});
