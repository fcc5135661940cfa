// Appending an event from the session page: the form, the delta's preview
// tier by tier, the event and state appearing without a reload, validation
// next to each field, and a stale page refused with a one-click reload.
// Every test checks the database as well as the page.
import type { Page } from '@playwright/test';
import { appendEvents, textEvent } from '../lib/testing/factories';
import { expect, test } from './fixtures';
import { appendForm, eventCount, eventRow, openSession, refOf, stateEntry } from './support/session-page';

async function openForm(page: Page) {
  await page.getByRole('button', { name: 'Append an event' }).click();
  await expect(appendForm(page).getByLabel('Author')).toHaveValue('user');
}

test('appends text, a function call and a delta, previewed per tier, and shows them without a reload', async ({
  page,
  service,
  createSession,
}) => {
  const session = await createSession({ state: { 'user:plan': 'free', topic: 'tea', 'app:tone': 'warm' } });
  const sibling = await createSession({ appName: session.appName, userId: session.userId });
  await openSession(page, session);
  await openForm(page);
  const append = appendForm(page);
  await expect(append.getByLabel('Invocation id')).toHaveValue(/^e-[0-9a-f-]{36}$/);

  await append.getByLabel('Text').fill('Please upgrade me');
  await append.getByRole('checkbox', { name: 'Function call' }).check();
  await append.getByLabel('Function call name').fill('upgrade');
  await append.getByLabel('Arguments (JSON object)').fill('{"plan": "pro"}');
  await append
    .getByLabel('State delta (JSON object)')
    .fill('{"topic": "billing", "plan": "pro", "user:plan": "pro", "temp:step": 1, "note": null}');

  const preview = append.getByRole('region', { name: 'What this delta will do' });
  const sessionChanges = preview.getByRole('region', { name: 'Session state changes' });
  await expect(sessionChanges.getByRole('listitem', { name: 'topic changed' })).toContainText('"tea"→becomes"billing"');
  await expect(sessionChanges.getByRole('listitem', { name: 'plan new' })).toContainText('A different key from user:plan');
  await expect(sessionChanges.getByRole('listitem', { name: 'note new' })).toContainText('Stores null: a delta cannot remove a key');
  const userChanges = preview.getByRole('region', { name: 'User state changes' });
  await expect(userChanges.getByRole('listitem', { name: 'user:plan changed' })).toContainText('"free"→becomes"pro"');
  await expect(userChanges).toContainText(
    `Shared by every session of user ${session.userId}: this changes what 1 other session read too, at once.`,
  );
  const tempChanges = preview.getByRole('region', { name: 'temp: keys changes' });
  await expect(tempChanges).toContainText('Applied to this invocation only, never stored');
  await expect(preview.getByRole('region', { name: 'App state changes' })).toHaveCount(0);

  await append.getByRole('button', { name: 'Append event' }).click();
  await expect(append.getByRole('status')).toContainText(/Appended event .+ by user\./);
  await expect(append.getByLabel('State delta (JSON object)')).toHaveValue('');

  // The timeline and the state columns follow, without a reload.
  await expect(eventRow(page, 1)).toContainText('Please upgrade me');
  await expect(stateEntry(page, 'Session state', 'topic')).toContainText('"billing"');
  await expect(stateEntry(page, 'User state', 'plan')).toContainText('"pro"');
  await expect(stateEntry(page, 'Session state', 'step')).toHaveCount(0);

  const [stored] = (await service.listEvents(refOf(session))).items;
  expect(stored?.event).toMatchObject({
    author: 'user',
    content: { role: 'user', parts: [{ text: 'Please upgrade me' }, { functionCall: { name: 'upgrade', args: { plan: 'pro' } } }] },
    actions: { stateDelta: { topic: 'billing', plan: 'pro', 'user:plan': 'pro', note: null } },
  });
  expect(stored?.event.actions.stateDelta).not.toHaveProperty('temp:step');
  const other = await service.getSession({ appName: sibling.appName, userId: sibling.userId, sessionId: sibling.id });
  expect(other?.state['user:plan']).toBe('pro');
});

test('invalid input is refused next to its field and nothing is appended', async ({ page, service, createSession }) => {
  const session = await createSession({ state: { topic: 'tea' } });
  await openSession(page, session);
  await openForm(page);
  const append = appendForm(page);
  const delta = append.getByLabel('State delta (JSON object)');

  await delta.fill('{"topic": "billing",\n  "step": }');
  await expect(append.getByText('Malformed JSON at line 2, column 11: unexpected character "}", expected a JSON value')).toBeVisible();
  await expect(append.getByText('Fix the state delta to see what it will do.')).toBeVisible();
  await delta.fill('["topic"]');
  await expect(append.getByText('expected a JSON object, got an array')).toBeVisible();
  await delta.fill('{"user:": 1}');
  await expect(append.getByText('key "user:" names no key in the user tier: keys must not be empty')).toBeVisible();
  await delta.fill('{"": 1}');
  await expect(append.getByText('keys must not be empty')).toBeVisible();
  await delta.fill(JSON.stringify({ big: 'x'.repeat(2 * 1024 * 1024) }));
  await expect(append.getByText(/value of "big": [\d.]+ MiB of JSON \([\d,]+ bytes\), over the 2 MiB limit/)).toBeVisible();
  await append.getByRole('button', { name: 'Append event' }).click();

  await delta.fill('');
  await append.getByRole('checkbox', { name: 'Function call' }).check();
  await append.getByLabel('Arguments (JSON object)').fill('[1]');
  await append.getByRole('button', { name: 'Append event' }).click();
  await expect(append.getByText('needs a function name')).toBeVisible();
  await expect(append.getByText('expected a JSON object, got an array')).toBeVisible();
  await append.getByRole('checkbox', { name: 'Function call' }).uncheck();
  await append.getByLabel('Author').fill('');
  await append.getByRole('button', { name: 'Append event' }).click();
  await expect(append.getByText('must not be empty')).toBeVisible();
  await append.getByLabel('Author').fill('user');
  await append.getByRole('button', { name: 'Append event' }).click();
  await expect(append.getByText('An event needs text, a function call or response, or a state delta.')).toBeVisible();

  expect(await eventCount(service, session)).toBe(0);
  expect((await service.getSession(refOf(session)))?.state).toEqual({ topic: 'tea' });
});

test('a page that missed someone else’s append is refused, keeps the draft, and reloads in one click', async ({
  page,
  service,
  createSession,
}) => {
  const session = await createSession({ state: { topic: 'tea' } });
  await openSession(page, session);
  await openForm(page);
  const append = appendForm(page);
  await append.getByLabel('Text').fill('Mine');
  await append.getByLabel('State delta (JSON object)').fill('{"topic": "mine"}');

  // Someone else appends while the form is open.
  await appendEvents(service, session, [textEvent('agent', 'Theirs', { stateDelta: { topic: 'theirs' } })]);
  await append.getByRole('button', { name: 'Append event' }).click();

  const conflict = append.getByRole('alert').filter({ hasText: 'Not appended: the session changed since you loaded it.' });
  await expect(conflict).toContainText('One new event was appended by someone else.');
  expect(await eventCount(service, session)).toBe(1);
  expect((await service.getSession(refOf(session)))?.state.topic).toBe('theirs');
  await expect(append.getByLabel('Text')).toHaveValue('Mine');

  await conflict.getByRole('button', { name: 'Reload session' }).click();
  await expect(conflict).toHaveCount(0);
  await expect(eventRow(page, 1)).toContainText('Theirs');
  // The preview now starts from their value.
  await expect(append.getByRole('listitem', { name: 'topic changed' })).toContainText('"theirs"→becomes"mine"');
  await append.getByRole('button', { name: 'Append event' }).click();
  await expect(eventRow(page, 2)).toContainText('Mine');

  const events = (await service.listEvents(refOf(session))).items.map((item) => item.event.author);
  expect(events).toEqual(['agent', 'user']);
  expect((await service.getSession(refOf(session)))?.state.topic).toBe('mine');
});

test('a large value (1.5 MiB) goes through; an unknown session is said in the form', async ({ page, service, createSession }) => {
  const session = await createSession();
  await openSession(page, session);
  await openForm(page);
  const append = appendForm(page);
  const big = 'x'.repeat(1536 * 1024);
  await append.getByLabel('State delta (JSON object)').fill(JSON.stringify({ notes: big }));
  await append.getByRole('button', { name: 'Append event' }).click();
  await expect(append.getByRole('status')).toContainText(/Appended event .+ by user\./);
  expect((await service.getSession(refOf(session)))?.state.notes).toBe(big);

  // The session is deleted while the page is open.
  await append.getByLabel('Text').fill('Anyone there?');
  await service.deleteSession(refOf(session));
  await append.getByRole('button', { name: 'Append event' }).click();
  await expect(append.getByRole('alert').filter({ hasText: 'Not appended' })).toHaveText(`Not appended: Session ${session.id} not found.`);
  await expect(append.getByLabel('Text')).toHaveValue('Anyone there?');
  expect(await service.getSessionSummary(refOf(session))).toBeNull();
});
