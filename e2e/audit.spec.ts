// The audit log page: support edits and notes across apps, filtered by who,
// app and key, and downloaded as CSV with the same filters.
import { expect, test } from './fixtures';
import { auditPath } from '../lib/paths';

test('the audit log lists edits across apps, filtered, and downloads them', async ({ page, createSession, setSharedState }) => {
  const session = await createSession({ state: { topic: 'refund' } });
  const { appName, userId } = session;
  await setSharedState({ appName, userId, state: { plan: 'pro', tier: 'gold' } });

  await page.goto(auditPath());
  await page.getByRole('textbox', { name: 'App' }).fill(appName);
  await page.getByRole('textbox', { name: 'Key' }).fill('user:plan');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(new RegExp(`app=${appName}`));
  const rows = page.getByRole('table', { name: 'Audit log, newest first' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('e2e-fixture');
  await expect(rows.first()).toContainText('user:plan');
  await expect(rows.first()).toContainText('"pro"');

  const csvHref = await page.getByRole('link', { name: 'CSV' }).getAttribute('href');
  const csv = await page.request.get(csvHref ?? '');
  expect(csv.status()).toBe(200);
  const lines = (await csv.text()).trim().split('\r\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`,e2e-fixture,edit,edit,${appName},${userId},,user,plan,,"""pro""",end-to-end test data,`);
});
