import { appendEvents, invocationId, stateDeltaEvent, textEvent, toolCallEvents } from '../lib/testing/factories';
import { expect, test } from './fixtures';
import { eventRow, openSession, sessionUrl, timelineRows } from './support/session-page';

test('each event shows author, invocation, content, flags and its delta as a per-key diff', async ({ page, service, createSession }) => {
  const session = await createSession({ state: { 'user:plan': 'free', mood: 'calm' } });
  const turn = invocationId();
  await appendEvents(service, session, [
    textEvent('user', 'Upgrade me, please.', { invocationId: turn }),
    ...toolCallEvents(
      'billing_agent',
      { name: 'upgrade_plan', args: { plan: 'pro' }, response: { ok: true } },
      { invocationId: turn, stateDelta: { 'user:plan': 'pro', 'app:upgrades': 1, receipt: { id: 'r-1' } } },
    ),
    stateDeltaEvent(
      'billing_agent',
      { mood: null },
      { invocationId: turn, extra: { errorCode: 'RATE_LIMIT', errorMessage: 'Too many upgrades' } },
    ),
    textEvent('billing_agent', 'Handing over.', {
      invocationId: turn,
      extra: { actions: { escalate: true, transferToAgent: 'support_agent' } },
    }),
  ]);
  await openSession(page, session);

  const question = eventRow(page, 1);
  await expect(question.getByRole('button', { name: 'Show only events by user' })).toBeVisible();
  await expect(question.getByRole('button', { name: `Show only events of invocation ${turn}` })).toBeVisible();
  await expect(question).toContainText('Upgrade me, please.');
  await expect(eventRow(page, 2)).toContainText('Function call upgrade_plan');
  await expect(eventRow(page, 2)).toContainText('plan:"pro"'); // the tree's key and value, side by side

  // The response carried the delta: old → new per key, with scope and kind.
  const diff = eventRow(page, 3).getByRole('list', { name: 'State changes of event 3' });
  await expect(eventRow(page, 3)).toContainText('Function response upgrade_plan');
  await expect(diff.getByRole('listitem', { name: 'user:plan' })).toHaveText(/user\s*user:plan\s*changed.*"free"\s*→\s*"pro"/);
  await expect(diff.getByRole('listitem', { name: 'app:upgrades' })).toHaveText(/app\s*app:upgrades\s*added.*\(absent\)\s*→\s*1/);
  await expect(diff.getByRole('listitem', { name: 'receipt' })).toContainText('added');
  await expect(diff.getByRole('listitem', { name: 'receipt' })).toContainText('id:"r-1"');

  // null is a value, not a removal.
  await expect(eventRow(page, 4).getByRole('listitem', { name: 'mood' })).toHaveText(/session\s*mood\s*changed.*"calm"\s*→\s*null/);
  await expect(eventRow(page, 4).getByRole('list', { name: 'Flags' })).toHaveText('error RATE_LIMIT');
  await expect(eventRow(page, 4)).toContainText('Too many upgrades');
  await expect(eventRow(page, 5).getByRole('list', { name: 'Flags' }).getByRole('listitem')).toHaveText([
    'escalate',
    'transfer → support_agent',
  ]);
});

test('filters by author, invocation and touched key, kept in the URL', async ({ page, service, createSession }) => {
  const session = await createSession();
  const first = invocationId();
  const second = invocationId();
  await appendEvents(service, session, [
    textEvent('user', 'hi', { invocationId: first }),
    stateDeltaEvent('agent', { 'user:plan': 'pro' }, { invocationId: first }),
    textEvent('user', 'again', { invocationId: second }),
    stateDeltaEvent('agent', { topic: 'tea' }, { invocationId: second }),
    stateDeltaEvent('agent', { 'user:plan': 'team' }, { invocationId: second }),
  ]);
  await openSession(page, session);
  await expect(timelineRows(page)).toHaveCount(5);

  // By touched key, through the form.
  await page.getByRole('searchbox', { name: 'Touched key' }).fill('user:plan');
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page).toHaveURL(sessionUrl(session, '?key=user%3Aplan'));
  await expect(page.getByText('2 matching events')).toBeVisible();
  await expect(timelineRows(page)).toHaveCount(2);
  await expect(eventRow(page, 2)).toBeVisible();
  await expect(eventRow(page, 5)).toBeVisible();

  // By author, from a row's author chip (combined with the key filter).
  await eventRow(page, 5).getByRole('button', { name: 'Show only events by agent' }).click();
  await expect(page).toHaveURL(sessionUrl(session, '?author=agent&key=user%3Aplan'));
  await expect(timelineRows(page)).toHaveCount(2);

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(timelineRows(page)).toHaveCount(5);

  // By invocation: a deep link.
  await page.goto(sessionUrl(session, `?invocation=${second}`));
  await expect(timelineRows(page)).toHaveCount(3);
  await expect(page.getByRole('searchbox', { name: 'Invocation' })).toHaveValue(second);
  await page.goto(sessionUrl(session, '?author=nobody'));
  await expect(page.getByText('No events match these filters.')).toBeVisible();
});

test('searches the timeline by text, tool name and errors, kept in the URL', async ({ page, service, createSession }) => {
  const session = await createSession();
  await appendEvents(service, session, [
    textEvent('user', 'Where is my refund?'),
    ...toolCallEvents('support_agent', { name: 'lookup_order', args: { order: 42 }, response: { status: 'shipped' } }),
    textEvent('support_agent', 'Your REFUND was sent on Monday.'),
  ]);
  await openSession(page, session);
  await expect(timelineRows(page)).toHaveCount(4);

  await page.getByRole('searchbox', { name: 'Text' }).fill('refund');
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page).toHaveURL(sessionUrl(session, '?text=refund'));
  await expect(timelineRows(page)).toHaveCount(2);
  await expect(eventRow(page, 1)).toBeVisible();
  await expect(eventRow(page, 4)).toBeVisible();

  await page.goto(sessionUrl(session, '?text=LOOKUP_ORD'));
  await expect(page.getByRole('searchbox', { name: 'Text' })).toHaveValue('LOOKUP_ORD');
  await expect(timelineRows(page)).toHaveCount(2);
  await expect(eventRow(page, 2)).toBeVisible();

  // By tool name from the form; errors only (none here).
  await page.goto(sessionUrl(session, ''));
  await page.getByRole('searchbox', { name: 'Tool' }).fill('lookup_order');
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page).toHaveURL(sessionUrl(session, '?tool=lookup_order'));
  await expect(timelineRows(page)).toHaveCount(2);
  await page.getByRole('checkbox', { name: 'Errors only' }).check();
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page).toHaveURL(sessionUrl(session, '?tool=lookup_order&errors=1'));
  await expect(page.getByText('No events match these filters.')).toBeVisible();
});

test('keyboard: j and k move through events, Enter shows the state after one, Escape goes back to now', async ({
  page,
  service,
  createSession,
}) => {
  const session = await createSession();
  await appendEvents(
    service,
    session,
    [1, 2, 3].map((n) => stateDeltaEvent('agent', { step: n })),
  );
  await openSession(page, session);
  await expect(timelineRows(page)).toHaveCount(3);

  await page.keyboard.press('j');
  await expect(eventRow(page, 1)).toBeFocused();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(eventRow(page, 3)).toBeFocused();
  await page.keyboard.press('k');
  await expect(eventRow(page, 2)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(sessionUrl(session, '?event=2'));
  await expect(eventRow(page, 2)).toHaveAttribute('aria-current', 'true');
  const step = page.getByRole('region', { name: 'Session state' }).getByRole('listitem', { name: 'step' });
  await expect(step.getByText('2', { exact: true })).toBeVisible();

  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(sessionUrl(session));
  await expect(page.getByRole('region', { name: 'Time travel' })).toHaveCount(0);
  await expect(step.getByText('3', { exact: true })).toBeVisible();
});

test('a session without events says so', async ({ page, createSession }) => {
  const session = await createSession({ state: { topic: 'tea' } });
  await openSession(page, session);
  await expect(page.getByText('No events yet.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Session state' }).getByRole('listitem', { name: 'topic' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'App state' })).toContainText('No app state');
});
