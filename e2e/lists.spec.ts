// The session lists: event count, errors, last author and notes per session;
// the filter for sessions with an error event; sorting by event count.
import { expect, test } from './fixtures';
import { appPath } from '../lib/paths';

test('the app’s session list shows errors and last authors, filters by errors and sorts by events', async ({
  page,
  service,
  createSession,
}) => {
  const failing = await createSession({ sessionId: 'failing-session' });
  const { appName, userId } = failing;
  const busy = await createSession({ appName, userId, sessionId: 'busy-session' });
  const ref = (sessionId: string) => ({ appName, userId, sessionId });
  await service.append(ref(failing.id), { author: 'billing_agent', errorCode: 'RATE_LIMIT', errorMessage: 'quota exceeded' });
  for (let n = 0; n < 3; n += 1)
    await service.append(ref(busy.id), { author: 'concierge', content: { role: 'model', parts: [{ text: `turn ${n}` }] } });

  await page.goto(appPath(appName));
  const list = page.getByRole('table', { name: `Sessions of ${appName}` });
  const failingRow = list.getByRole('row', { name: /failing-session/ });
  await expect(failingRow).toContainText('billing_agent');
  await expect(failingRow.getByRole('cell').nth(3)).toHaveText('1');
  await expect(list.getByRole('row', { name: /busy-session/ })).toContainText('concierge');

  await page.getByRole('link', { name: 'Only sessions with an error event' }).click();
  await expect(page).toHaveURL(/errors=1/);
  await expect(list.locator('tbody tr')).toHaveCount(1);
  await expect(list.locator('tbody tr')).toContainText('failing-session');
  await page.getByRole('link', { name: 'Show every session' }).click();
  // The filtered table's header links keep errors=1 until the unfiltered list replaces it.
  await expect(page).not.toHaveURL(/errors=1/);
  await expect(list.getByRole('link', { name: 'Events' })).not.toHaveAttribute('href', /errors=1/);

  await list.getByRole('link', { name: 'Events' }).click();
  await expect(page).toHaveURL(/sort=events/);
  await expect(list.locator('tbody tr').first()).toContainText('busy-session');
});
