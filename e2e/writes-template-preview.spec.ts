// The standalone template preview: an instruction rendered against a stored
// session (now or as of an event) or typed state, each placeholder's outcome
// marked, ADK's exact error for a missing key, both value dialects, and the
// template kept in the URL. Rendering reads; the database must not change.
import type { Page } from '@playwright/test';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { openDatabase } from '../lib/db';
import { appendEvents, stateDeltaEvent } from '../lib/testing/factories';
import { expect, test, uniqueName } from './fixtures';
import { e2eDatabaseUrl } from './support/database';
import { eventRow, openSession } from './support/session-page';

const TEMPLATE = 'You are helping {user:name} with {topic}. {app:tone?}';

function previewUrl(params: Record<string, string>): string {
  return `/preview?${new URLSearchParams(params).toString()}`;
}

const alert = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
const rendered = (page: Page) => page.getByTestId('rendered-template');
const exactText = (page: Page) => page.getByTestId('rendered-text');
const placeholderRow = (page: Page, raw: string) =>
  page
    .getByRole('table', { name: 'Placeholders' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: raw, exact: true }) });

test('renders against a stored session, now and as of an event, and shares the template in the URL', async ({
  page,
  service,
  createSession,
}) => {
  const session = await createSession({ state: { 'user:name': 'Ada', topic: 'tea' } });
  const ref = { appName: session.appName, userId: session.userId, sessionId: session.id };
  await appendEvents(service, session, [stateDeltaEvent('agent', { topic: 'coffee' }), stateDeltaEvent('agent', { topic: 'cocoa' })]);
  const before = await service.getSessionSummary(ref);

  await page.goto(previewUrl({ app: ref.appName, user: ref.userId, session: ref.sessionId, template: TEMPLATE }));
  await expect(rendered(page)).toHaveText('You are helping Ada with cocoa. {app:tone?}');
  await expect(exactText(page)).toHaveText('You are helping Ada with cocoa. ');
  await expect(page.getByRole('status').filter({ hasText: 'ADK renders this instruction without errors.' })).toBeVisible();
  await expect(placeholderRow(page, '{user:name}')).toContainText('resolved');
  await expect(placeholderRow(page, '{user:name}')).toContainText('user');
  await expect(placeholderRow(page, '{user:name}')).toContainText('"Ada"');
  await expect(placeholderRow(page, '{topic}')).toContainText('session');
  await expect(placeholderRow(page, '{app:tone?}')).toContainText('optional, missing');
  // The chip names the placeholder; the text the agent gets has nothing there.
  await expect(rendered(page).locator('mark[data-status="optional-missing"]')).toHaveText('{app:tone?}');

  // As of the first event: the topic it set.
  const asOf = page.getByLabel('State', { exact: true });
  await expect(asOf.locator('option')).toHaveCount(3); // now, after #2, after #1
  await asOf.selectOption('1');
  await expect(rendered(page)).toHaveText('You are helping Ada with coffee. {app:tone?}');
  await expect(page).toHaveURL(/[?&]event=1(&|$)/);

  // A missing required key: ADK's exact words.
  const template = page.getByLabel('Instruction template');
  await template.fill('Hello {user:name}, about {subject}: {foo bar}');
  await expect(alert(page, 'ADK would fail with')).toContainText('ADK would fail with: Context variable not found: `subject`.');
  await expect(placeholderRow(page, '{subject}')).toContainText('missing');
  await expect(placeholderRow(page, '{foo bar}')).toContainText('left as written');
  await expect(rendered(page).locator('mark[data-status="verbatim"]')).toHaveText('{foo bar}');

  // The URL carries the template: opening it again shows the same preview.
  await expect(page).toHaveURL(/subject/);
  const shared = page.url();
  await page.goto('about:blank');
  await page.goto(shared);
  await expect(page.getByLabel('Instruction template')).toHaveValue('Hello {user:name}, about {subject}: {foo bar}');
  await expect(alert(page, 'ADK would fail with')).toContainText('Context variable not found: `subject`.');

  // Previewing wrote nothing.
  expect(await service.getSessionSummary(ref)).toEqual(before);
});

test('switches between ADK Python and TypeScript value rendering', async ({ page }) => {
  const state = JSON.stringify({ flag: true, nothing: null, prefs: { a: 1, b: [true, null] } });
  await page.goto(previewUrl({ state, template: '{flag}|{nothing}|{prefs}' }));
  await expect(exactText(page)).toHaveText("True||{'a': 1, 'b': [True, None]}");
  // None inserts nothing; the highlighted view still marks where.
  await expect(rendered(page).locator('mark[data-status="resolved"]').nth(1)).toHaveText('{nothing}');
  await page.getByRole('radio', { name: 'ADK TypeScript' }).click();
  await expect(exactText(page)).toHaveText('true|null|{"a":1,"b":[true,null]}');
  await expect(page).toHaveURL(/[?&]dialect=typescript(&|$)/);
  await page.reload();
  await expect(page.getByRole('radio', { name: 'ADK TypeScript' })).toHaveAttribute('aria-checked', 'true');
  await expect(exactText(page)).toHaveText('true|null|{"a":1,"b":[true,null]}');
});

test('says what is wrong with typed state and with an unknown session', async ({ page, createSession }) => {
  // An app whose id has "404" in it is listed on the page too: the page must still read as the preview, not a 404.
  await createSession({ appName: uniqueName('e2e-404') });
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Template preview' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Template preview' })).toBeVisible();
  await page.goto(previewUrl({ state: '{"topic": "tea",\n  "x": }', template: '{topic}' }));
  await expect(page.getByText('Malformed JSON at line 2, column 8: unexpected character "}", expected a JSON value')).toBeVisible();
  await page.getByLabel(/^State \(JSON object/).fill('["not", "an", "object"]');
  await expect(page.getByText('expected a JSON object, got an array')).toBeVisible();

  await page.goto(previewUrl({ app: 'no-such-app', user: 'nobody', session: 'missing', template: '{topic}' }));
  await expect(page.getByRole('alert').filter({ hasText: 'There is no session' })).toHaveText(
    'There is no session “missing” of user “nobody” in app “no-such-app”. Choose one above.',
  );
  await expect(page.getByRole('link', { name: 'Open the session' })).toHaveCount(0);
  // The preview page says so itself, not a not-found page.
  await expect(page.getByRole('heading', { level: 1, name: 'Template preview' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
});

test('a stored session is picked from lists, not typed as three ids', async ({ page, createSession }) => {
  const session = await createSession({ userId: uniqueName('picker-user'), state: { topic: 'tea' } });
  await createSession({ appName: session.appName, userId: uniqueName('other-user') });
  await page.goto(previewUrl({ template: 'About {topic}' }));
  await page.getByRole('tab', { name: 'A stored session' }).click();

  await page.getByLabel('App', { exact: true }).selectOption(session.appName);
  const user = page.getByLabel('User', { exact: true });
  await user.fill('no-such-user');
  await expect(page.getByText(`No user of ${session.appName} has an id containing “no-such-user”.`)).toBeVisible();
  await user.fill(session.userId);
  const sessions = page.getByLabel('Session', { exact: true });
  await expect(sessions).toBeEnabled();
  await expect(sessions.getByRole('option')).toHaveText([`${session.id} · 0 events`]);
  await page.getByRole('button', { name: 'Load state' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]session=${encodeURIComponent(session.id)}(&|$)`));
  await expect(exactText(page)).toHaveText('About tea');
});

test('the session page’s panel renders against the state the page shows and keeps the template in the URL', async ({
  page,
  service,
  createSession,
}) => {
  const session = await createSession({ state: { 'user:name': 'Ada', topic: 'tea' } });
  await appendEvents(service, session, [stateDeltaEvent('agent', { topic: 'coffee' }), stateDeltaEvent('agent', { topic: 'cocoa' })]);
  await openSession(page, session, `?${new URLSearchParams({ template: '{user:name} likes {topic}' }).toString()}`);
  const panel = page.getByRole('region', { name: 'Template preview' });
  await expect(panel.getByTestId('rendered-text')).toHaveText('Ada likes cocoa');
  await expect(panel).toContainText('Rendering against the current state');

  // Going back in time on the page takes the preview with it; the template stays in the URL.
  await eventRow(page, 1).getByRole('button', { name: 'Show the state after event 1' }).click();
  await expect(panel.getByTestId('rendered-text')).toHaveText('Ada likes coffee');
  await expect(panel).toContainText('the state right after event #1');
  await expect(page).toHaveURL(/[?&]event=1(&|$)/);
  await expect(page).toHaveURL(/[?&]template=/);

  await panel.getByLabel('Instruction template').fill('{topic} for {user:name}, {app:tone}');
  await expect(panel.getByRole('alert').filter({ hasText: 'ADK would fail with' })).toContainText(
    'Context variable not found: `app:tone`.',
  );
  await expect(page).toHaveURL(/app%3Atone/);
  await expect(page).toHaveURL(/[?&]event=1(&|$)/);
  const shared = new URL((await panel.getByRole('link', { name: 'Open in the preview page' }).getAttribute('href')) ?? '', page.url());
  expect(Object.fromEntries(shared.searchParams)).toEqual({
    app: session.appName,
    user: session.userId,
    session: session.id,
    event: '1',
    template: '{topic} for {user:name}, {app:tone}',
  });
});

test('both previews of a stored session keep the stored spelling of a float (2.0 renders 2.0 in the Python dialect)', async ({
  page,
  createSession,
}) => {
  const session = await createSession({ state: { f: 2, i: 2, 'user:name': 'Ada' } });
  // The text a Python agent's json.dumps leaves for the float 2.0; the parse in between makes it the number 2.
  const db = await openDatabase(e2eDatabaseUrl());
  try {
    await db.client.$executeRaw(sql`UPDATE session_state SET value = '2.0' WHERE key = 'f'
      AND session_pk = (SELECT pk FROM sessions WHERE app_name = ${session.appName} AND id = ${session.id})`);
  } finally {
    await db.close();
  }
  // An agent's float written through /api is stored as sent.
  const events = `/api/apps/${session.appName}/users/${session.userId}/sessions/${session.id}/events`;
  const appended = await page.request.post(events, { data: '{"author": "agent", "actions": {"stateDelta": {"g": 3.0}}}' });
  expect(appended.status()).toBe(200);
  const template = '{f} {g} {i} {user:name}';

  await openSession(page, session, `?${new URLSearchParams({ template }).toString()}`);
  const panel = page.getByRole('region', { name: 'Template preview' });
  await expect(panel.getByTestId('rendered-text')).toHaveText('2.0 3.0 2 Ada');
  await panel.getByRole('radio', { name: 'ADK TypeScript' }).click();
  await expect(panel.getByTestId('rendered-text')).toHaveText('2 3 2 Ada');

  await page.goto(previewUrl({ app: session.appName, user: session.userId, session: session.id, template }));
  await expect(exactText(page)).toHaveText('2.0 3.0 2 Ada');

  // Time travel: as of the event that wrote 3.0, after a later one wrote 4.
  const later = await page.request.post(events, { data: '{"author": "agent", "actions": {"stateDelta": {"g": 4}}}' });
  expect(later.status()).toBe(200);
  const asOf = '{g} {i}';
  await openSession(page, session, `?${new URLSearchParams({ template: asOf, event: '1' }).toString()}`);
  await expect(page.getByRole('region', { name: 'Template preview' }).getByTestId('rendered-text')).toHaveText('3.0 2');
  await page.goto(previewUrl({ app: session.appName, user: session.userId, session: session.id, event: '1', template: asOf }));
  await expect(exactText(page)).toHaveText('3.0 2');
});
