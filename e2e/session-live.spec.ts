import { appendEvents, stateDeltaEvent, textEvent } from '../lib/testing/factories';
import { expect, test } from './fixtures';
import { appendThroughApi, eventRow, openSession, stateEntry } from './support/session-page';

/** The promise: new events and state appear within 2 seconds while the page is open. */
const LIVE_MS = 2_000;

test('events appended through the API appear live, with the new state', async ({ page, service, createSession }) => {
  const session = await createSession({ state: { step: 0 } });
  await appendEvents(service, session, [stateDeltaEvent('agent', { step: 1 })]);
  await openSession(page, session);
  await expect(eventRow(page, 1)).toBeVisible();

  await appendThroughApi(page, session, {
    author: 'agent',
    invocationId: 'e-live',
    content: { role: 'model', parts: [{ text: 'Live and well.' }] },
    actions: { stateDelta: { step: 2, 'user:seen_live': true } },
  });
  await expect(eventRow(page, 2)).toContainText('Live and well.', { timeout: LIVE_MS });
  await expect(stateEntry(page, 'Session state', 'step').getByText('2', { exact: true })).toBeVisible({ timeout: LIVE_MS });
  await expect(stateEntry(page, 'User state', 'seen_live')).toBeVisible({ timeout: LIVE_MS });
  await expect(page.getByText('2 events', { exact: true })).toBeVisible(); // the timeline's count
});

test('state edited elsewhere (another session, support) appears without a reload', async ({ page, service, createSession }) => {
  const session = await createSession();
  await openSession(page, session);
  await service.editState({ appName: session.appName, scope: 'app', changes: { banner: 'maintenance' }, actor: 'ops', reason: 'notice' });
  const banner = stateEntry(page, 'App state', 'banner');
  await expect(banner).toContainText('"maintenance"', { timeout: LIVE_MS });
  await expect(banner).toContainText('edited by ops — “notice”');
});

test('shows "N new events" when scrolled away from the newest, and jumps there on click', async ({ page, service, createSession }) => {
  const session = await createSession();
  await appendEvents(
    service,
    session,
    Array.from({ length: 30 }, (_, i) => textEvent('agent', `Message ${i + 1}`)),
  );
  // Opened at the first event: far from the bottom.
  await openSession(page, session, '?event=1');
  await expect(eventRow(page, 1)).toBeVisible();

  for (const n of [31, 32, 33]) await appendThroughApi(page, session, textEvent('agent', `Message ${n}`));
  const marker = page.getByRole('button', { name: '3 new events ↓' });
  await expect(marker).toBeVisible({ timeout: LIVE_MS });
  await marker.click();
  await expect(eventRow(page, 33)).toBeInViewport();
  await expect(marker).toHaveCount(0);

  // At the bottom, new events are followed instead of counted.
  await appendThroughApi(page, session, textEvent('agent', 'Message 34'));
  await expect(eventRow(page, 34)).toBeInViewport({ timeout: LIVE_MS });
  await expect(page.getByRole('button', { name: /new events? ↓/ })).toHaveCount(0);
});
