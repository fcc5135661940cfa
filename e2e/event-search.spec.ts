// The app-wide event search: the app page's Events tab finds events of every
// session by text, tool name or error, holds the search in its URL, links to
// each session's timeline filtered by the text, and is reached from the
// header's Find dialog.
import { expect, test, uniqueName } from './fixtures';
import { appPath, sessionPath } from '../lib/paths';

const SEARCH_BOX = 'Search apps, users, sessions and state values';

test('events of every session of an app are found by text from the Events tab and from the header', async ({
  page,
  service,
  createSession,
}) => {
  const token = uniqueName('refundword').replace(/-/g, '');
  const asked = await createSession({ sessionId: 'asked-session' });
  const { appName } = asked;
  const failed = await createSession({ appName, sessionId: 'failed-session' });
  await createSession({ appName, sessionId: 'quiet-session' });
  await service.append(
    { appName, userId: asked.userId, sessionId: asked.id },
    { author: 'user', content: { role: 'user', parts: [{ text: `Please ${token.toUpperCase()} my order` }] } },
  );
  await service.append(
    { appName, userId: failed.userId, sessionId: failed.id },
    { author: 'billing_agent', errorCode: 'LIMIT', errorMessage: `${token} over the limit` },
  );

  await page.goto(appPath(appName));
  await page.getByRole('navigation', { name: 'App lists' }).getByRole('link', { name: 'Events' }).click();
  await page.getByLabel('Event text contains').fill(token);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`tab=events&text=${token}`));
  const table = page.getByRole('table', { name: `Events of ${appName} containing “${token}”` });
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await expect(table.getByRole('row', { name: /failed-session/ })).toContainText('billing_agent');
  await expect(table.getByRole('row', { name: /asked-session/ })).toContainText(`Please ${token.toUpperCase()} my order`);
  await expect(page.getByRole('status').filter({ hasText: 'text index' })).toContainText('2 events');

  // Each links to its session's timeline, filtered by the text.
  await table.getByRole('link', { name: 'Session asked-session, event #1' }).click();
  await expect(page).toHaveURL(`${sessionPath(appName, asked.userId, asked.id)}?text=${token}`);

  // From the header, on the app's page: the same search, one click away.
  await page.goto(appPath(appName));
  const search = page.getByRole('combobox', { name: SEARCH_BOX });
  await expect(async () => {
    await page.keyboard.press('/');
    await expect(search).toBeVisible({ timeout: 1000 });
  }).toPass();
  await search.fill(token);
  await page.getByRole('link', { name: `Events of ${appName} containing “${token}”` }).click();
  await expect(page).toHaveURL(`${appPath(appName)}?tab=events&text=${token}`);
  await expect(table.locator('tbody tr')).toHaveCount(2);
});
