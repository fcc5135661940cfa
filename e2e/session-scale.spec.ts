import { expect, test } from './fixtures';
import { appendConversation } from './support/long-session';
import { eventRow, openSession, sessionUrl, timelineRows } from './support/session-page';

const EVENTS = 10_000;

test('a 10,000-event session opens at its newest events and renders only what is in view', async ({ page, service, createSession }) => {
  test.setTimeout(180_000); // seeding 10,000 events through the service takes a while on a busy machine
  const session = await createSession({ state: { 'app:model': 'flash' } });
  await appendConversation(service, session, EVENTS);

  const started = Date.now();
  await page.goto(sessionUrl(session));
  await expect(eventRow(page, EVENTS)).toBeVisible();
  const openMs = Date.now() - started;
  test.info().annotations.push({ type: 'open 10,000-event session (ms)', description: String(openMs) });
  console.log(`10,000-event session: newest event visible ${openMs} ms after navigation`);

  await expect(page.getByText('10,000 events', { exact: true })).toBeVisible();
  expect(await timelineRows(page).count()).toBeLessThan(40);
  await expect(timelineRows(page).last()).toHaveAttribute('aria-setsize', String(EVENTS));

  // Scrolling to the middle fetches that page of events, still with few rows in the DOM.
  await page.getByTestId('timeline-scroller').evaluate((scroller) => {
    scroller.scrollTop = scroller.scrollHeight / 2;
  });
  await expect(
    timelineRows(page)
      .filter({ hasText: /squared/ })
      .first(),
  ).toBeVisible();
  const positions = await timelineRows(page).evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('aria-posinset'))));
  expect(Math.min(...positions)).toBeGreaterThan(2_000);
  expect(Math.max(...positions)).toBeLessThan(8_000);
  expect(positions.length).toBeLessThan(40);

  // A deep link into the middle opens there.
  await openSession(page, session, '?event=5000');
  await page.getByTestId('timeline-scroller').scrollIntoViewIfNeeded(); // the state columns come first
  await expect(eventRow(page, 5000)).toBeInViewport();
  await expect(eventRow(page, 5000)).toHaveAttribute('aria-current', 'true');
  expect(await timelineRows(page).count()).toBeLessThan(40);
});
