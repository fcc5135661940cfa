// Named saved views of a session list: the list's filters and sort saved
// under a name, applied again in one click, renamed and deleted, on the app's
// list and on a user's.
import { expect, test } from './fixtures';
import { appPath, userPath } from '../lib/paths';

test('a filtered, sorted app list is saved as a view, applied in one click, renamed and deleted', async ({ page, createSession }) => {
  const refund = await createSession({ sessionId: 'refund-session', state: { topic: 'Refund request' } });
  const { appName, userId } = refund;
  await createSession({ appName, userId, sessionId: 'login-session', state: { topic: 'login help' } });
  const list = page.getByRole('table', { name: `Sessions of ${appName}` });
  const views = page.getByRole('region', { name: 'Saved views' });

  await page.goto(`${appPath(appName)}?key=topic&value=refu&sort=oldest&page=1`);
  await expect(list.locator('tbody tr')).toHaveCount(1);
  await expect(views).toContainText('none yet');
  await views.getByLabel('Save this view as').fill('Refunds, oldest first');
  await views.getByRole('button', { name: 'Save view' }).click();
  const saved = views.getByRole('list', { name: 'Your saved views' }).getByRole('link', { name: 'Refunds, oldest first' });
  await expect(saved).toHaveAttribute('aria-current', 'page');

  // From the unfiltered list, one click applies the view (without the page number).
  await page.goto(appPath(appName));
  await expect(list.locator('tbody tr')).toHaveCount(2);
  await expect(saved).not.toHaveAttribute('aria-current', 'page');
  await saved.click();
  await expect(page).toHaveURL(/\?key=topic&value=refu&sort=oldest$/);
  await expect(list.locator('tbody tr')).toHaveCount(1);
  await expect(list.locator('tbody tr')).toContainText('refund-session');
  await expect(saved).toHaveAttribute('aria-current', 'page');

  await views.getByText('Rename or delete views').click();
  await views.getByLabel('Name of “Refunds, oldest first”').fill('Refund hunt');
  await views.getByRole('button', { name: 'Rename' }).click();
  await expect(views.getByRole('list', { name: 'Your saved views' }).getByRole('link', { name: 'Refund hunt' })).toBeVisible();
  await expect(saved).toHaveCount(0);

  await views.getByRole('button', { name: 'Delete the view Refund hunt' }).click();
  await expect(views).toContainText('none yet');
});

test('a user’s list keeps views of its own, apart from the app’s', async ({ page, createSession }) => {
  const session = await createSession({ sessionId: 'carol-session', state: { plan: 'pro' } });
  const { appName, userId } = session;
  const views = page.getByRole('region', { name: 'Saved views' });

  await page.goto(`${userPath(appName, userId)}?key=plan&op=%3D&value=%22pro%22`);
  await views.getByLabel('Save this view as').fill('Pro plan');
  await views.getByRole('button', { name: 'Save view' }).click();
  await expect(views.getByRole('link', { name: 'Pro plan' })).toHaveAttribute('aria-current', 'page');
  await expect(views).toContainText('Saved “Pro plan”.');

  await page.goto(appPath(appName));
  await expect(views).toContainText('none yet');
  await page.goto(userPath(appName, userId));
  await views.getByRole('link', { name: 'Pro plan' }).click();
  await expect(page).toHaveURL(/\?key=plan&op=%3D&value=%22pro%22$/);
  await expect(page.getByRole('row', { name: /carol-session/ })).toBeVisible();
});
