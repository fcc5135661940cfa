// The list pages: apps → app → user → session and back by breadcrumbs,
// counts, sorting, pagination and every kind of search, each a deep link;
// 404s for unknown apps and users; the theme switch.
import type { Locator, Page } from '@playwright/test';
import { appPath, sessionPath, userPath } from '../lib/paths';
import { expect, test, uniqueName } from './fixtures';
import { deleteSessionsOf, insertSessions } from './support/bulk-sessions';

const breadcrumbs = (page: Page) => page.getByRole('navigation', { name: 'Breadcrumb' });

/** The session ids of a sessions table, top to bottom (first column). */
async function sessionIds(table: Locator): Promise<string[]> {
  return (await table.locator('tbody tr td:first-child').allTextContents()).map((text) => text.trim());
}

/** The value shown under a label in a page's stats. */
const stat = (page: Page, label: string) => page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('+ dd');

test('apps → app → user → session by links, and back up by breadcrumbs', async ({ page, createSession }) => {
  const appName = uniqueName('nav app');
  await createSession({ appName, userId: 'alice', sessionId: 'alice-chat' });
  await createSession({ appName, userId: 'bob', sessionId: 'bob-chat' });

  await page.goto('/apps');
  await page.getByLabel('App name contains').fill(appName);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(`/apps?q=${encodeURIComponent(appName).replaceAll('%20', '+')}`);
  await page.getByRole('link', { name: appName, exact: true }).click();

  await expect(page).toHaveURL(appPath(appName));
  await expect(page.getByRole('heading', { level: 1, name: appName })).toBeVisible();
  await expect(breadcrumbs(page).getByRole('link', { name: `app ${appName}` })).toHaveAttribute('aria-current', 'page');

  await page
    .getByRole('navigation', { name: 'App lists' })
    .getByRole('link', { name: /^Users/ })
    .click();
  await expect(page).toHaveURL(`${appPath(appName)}?tab=users`);
  await page
    .getByRole('table', { name: `Users of ${appName}` })
    .getByRole('link', { name: 'alice', exact: true })
    .click();

  await expect(page).toHaveURL(userPath(appName, 'alice'));
  await expect(page.getByRole('heading', { level: 1, name: 'alice' })).toBeVisible();
  await page.getByRole('link', { name: 'alice-chat', exact: true }).click();

  await expect(page).toHaveURL(sessionPath(appName, 'alice', 'alice-chat'));
  await expect(breadcrumbs(page).getByRole('link', { name: 'session alice-chat' })).toHaveAttribute('aria-current', 'page');

  await breadcrumbs(page).getByRole('link', { name: 'user alice' }).click();
  await expect(page).toHaveURL(userPath(appName, 'alice'));
  await breadcrumbs(page)
    .getByRole('link', { name: `app ${appName}` })
    .click();
  await expect(page).toHaveURL(appPath(appName));
  await breadcrumbs(page).getByRole('link', { name: 'Apps', exact: true }).click();
  await expect(page).toHaveURL('/apps');
  await expect(page.getByRole('heading', { level: 1, name: 'Apps' })).toBeVisible();
});

test('ids with spaces, percent signs, URL syntax and other scripts survive the round trip through URLs', async ({
  page,
  createSession,
}) => {
  // "%41" must stay "%41" (decoded exactly once); "?" and "#" must stay inside their segment.
  const appName = uniqueName('odd ü %41 ?#&');
  const userId = 'user with space %2F ü #1?';
  await createSession({ appName, userId, sessionId: 'sess ü %20' });

  await page.goto(`/apps?q=${encodeURIComponent(appName)}`);
  await page.getByRole('link', { name: appName, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(appName);
  await expect(page).toHaveTitle(`${appName} · Statehouse`);
  await page.getByRole('link', { name: userId, exact: true }).click();
  await expect(page).toHaveURL(userPath(appName, userId));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(userId);
  await expect(page).toHaveTitle(`${userId} · ${appName} · Statehouse`);
  await expect.poll(() => sessionIds(page.getByRole('table', { name: `Sessions of user ${userId}` }))).toEqual(['sess ü %20']);
  await breadcrumbs(page)
    .getByRole('link', { name: `app ${appName}` })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(appName);
});

test('counts and last activity on the apps list, the app page and its users', async ({ page, createSession }) => {
  const appName = uniqueName('nav-counts');
  for (const sessionId of ['a1', 'a2', 'a3']) await createSession({ appName, userId: 'ann', sessionId });
  await createSession({ appName, userId: 'ben', sessionId: 'b1' });

  await page.goto(`/apps?q=${encodeURIComponent(appName)}`);
  const appRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: appName, exact: true }) });
  await expect(appRow.getByRole('cell')).toHaveText([appName, '4', '2', /just now|minute/]);

  await page.goto(appPath(appName));
  await expect(stat(page, 'Sessions')).toHaveText('4');
  await expect(stat(page, 'Users with sessions')).toHaveText('2');
  await expect(stat(page, 'Last activity')).toContainText(/just now|minute ago/);
  // Newest first: b1 was created last.
  await expect.poll(() => sessionIds(page.getByRole('table', { name: `Sessions of ${appName}` }))).toEqual(['b1', 'a3', 'a2', 'a1']);

  await page.goto(`${appPath(appName)}?tab=users&sort=sessions`);
  const users = page.getByRole('table', { name: `Users of ${appName}` });
  await expect(users.getByRole('columnheader', { name: 'Sessions' })).toHaveAttribute('aria-sort', 'descending');
  await expect(users.locator('tbody tr')).toHaveCount(2);
  await expect(users.locator('tbody tr').first().getByRole('cell')).toHaveText(['ann', '3', /just now|minute/]);

  await page.goto(userPath(appName, 'ann'));
  await expect(stat(page, 'Sessions')).toHaveText('3');
});

test('pages through sessions; the page and its size are in the URL', async ({ page, createSession }) => {
  const appName = uniqueName('nav-pages');
  const created: string[] = [];
  for (let i = 1; i <= 12; i += 1) {
    const sessionId = `s${String(i).padStart(2, '0')}`;
    await createSession({ appName, userId: 'pat', sessionId });
    created.unshift(sessionId); // newest first
  }
  const table = page.getByRole('table', { name: `Sessions of ${appName}` });
  const pages = page.getByRole('navigation', { name: 'Pages of sessions' });

  await page.goto(appPath(appName));
  await page.getByRole('navigation', { name: 'sessions per page' }).getByRole('link', { name: '10 per page' }).click();
  await expect(page).toHaveURL(`${appPath(appName)}?size=10`);
  await expect(page.getByText('Showing 1–10 of 12 sessions')).toBeVisible();
  await expect.poll(() => sessionIds(table)).toEqual(created.slice(0, 10));

  await pages.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(`${appPath(appName)}?size=10&page=2`);
  await expect(page.getByText('Showing 11–12 of 12 sessions')).toBeVisible();
  await expect.poll(() => sessionIds(table)).toEqual(created.slice(10));
  await expect(pages.getByRole('link', { name: 'Next' })).toHaveAttribute('aria-disabled', 'true');

  // A deep link opens the same page.
  await page.goto(`${appPath(appName)}?page=2&size=10`);
  await expect.poll(() => sessionIds(table)).toEqual(created.slice(10));
  await pages.getByRole('link', { name: 'Previous' }).click();
  await expect(page).toHaveURL(`${appPath(appName)}?size=10`);
  await expect.poll(() => sessionIds(table)).toEqual(created.slice(0, 10));

  // Past the end: says so and still offers the way back.
  await page.goto(`${appPath(appName)}?page=9&size=10`);
  await expect(page.getByText('Page 9 is past the end: 12 sessions in all')).toBeVisible();
  await pages.getByRole('link', { name: 'Last' }).click();
  await expect(page).toHaveURL(`${appPath(appName)}?size=10&page=2`);
});

test('a search with more than 10,000 matches says 10,000+ and still pages to the end', async ({ page }) => {
  test.setTimeout(60_000);
  const appName = uniqueName('nav-many');
  // 10,030 sessions whose id contains "many-", newest last; 5 that do not match.
  insertSessions(appName, 'many-', 10_030);
  insertSessions(appName, 'else-', 5);
  try {
    const table = page.getByRole('table', { name: `Sessions of ${appName}` });
    const pages = page.getByRole('navigation', { name: 'Pages of sessions' });

    // The app's own sessions are counted exactly.
    await page.goto(appPath(appName));
    await expect(stat(page, 'Sessions')).toHaveText('10,035');
    await expect(page.getByText('Showing 1–25 of 10,035 sessions')).toBeVisible();
    await expect(pages.getByText('Page 1 of 402', { exact: true })).toBeVisible();

    // A search counts 10,000 matches past its page, and says there are more.
    await page.goto(`${appPath(appName)}?q=many-`);
    await expect(page.getByText('Showing 1–25 of 10,000+ sessions')).toBeVisible();
    await expect(pages.getByText('Page 1 of 400+', { exact: true })).toBeVisible();
    await expect(pages.getByRole('link', { name: 'Last' })).toHaveAttribute('aria-disabled', 'true');
    await expect.poll(() => sessionIds(table)).toEqual(Array.from({ length: 25 }, (_, i) => `many-${10_030 - i}`));
    await pages.getByRole('link', { name: 'Next' }).click();
    await expect(page).toHaveURL(`${appPath(appName)}?q=many-&page=2`);
    await expect(page.getByText('Showing 26–50 of 10,025+ sessions')).toBeVisible();
    await expect.poll(async () => (await sessionIds(table))[0]).toBe('many-10005');

    // A deep page counts further: near the end the total is exact and the last page is there.
    await page.goto(`${appPath(appName)}?q=many-&page=401`);
    await expect(page.getByText('Showing 10,001–10,025 of 10,030 sessions')).toBeVisible();
    await pages.getByRole('link', { name: 'Last' }).click();
    await expect(page).toHaveURL(`${appPath(appName)}?q=many-&page=402`);
    await expect(page.getByText('Showing 10,026–10,030 of 10,030 sessions')).toBeVisible();
    await expect.poll(() => sessionIds(table)).toEqual(['many-00005', 'many-00004', 'many-00003', 'many-00002', 'many-00001']);
    await expect(pages.getByRole('link', { name: 'Next' })).toHaveAttribute('aria-disabled', 'true');
    await pages.getByRole('link', { name: 'Previous' }).click();
    await expect(page).toHaveURL(`${appPath(appName)}?q=many-&page=401`);
  } finally {
    deleteSessionsOf(appName);
  }
});

test('sorts sessions oldest first from the column header, as a deep link', async ({ page, createSession }) => {
  const appName = uniqueName('nav-sort');
  for (const sessionId of ['first', 'second', 'third']) await createSession({ appName, userId: 'sam', sessionId });
  const table = page.getByRole('table', { name: `Sessions of ${appName}` });

  await page.goto(appPath(appName));
  await expect(table.getByRole('columnheader', { name: 'Last activity' })).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => sessionIds(table)).toEqual(['third', 'second', 'first']);

  await table.getByRole('link', { name: 'Last activity' }).click();
  await expect(page).toHaveURL(`${appPath(appName)}?sort=oldest`);
  await expect(table.getByRole('columnheader', { name: 'Last activity' })).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(() => sessionIds(table)).toEqual(['first', 'second', 'third']);
});

test('searches sessions by id, by state key and by key=value, each a deep link', async ({ page, createSession, setSharedState }) => {
  const appName = uniqueName('nav-search');
  await createSession({ appName, userId: 'una', sessionId: 'refund-1', state: { topic: 'refund' } });
  await createSession({ appName, userId: 'una', sessionId: 'billing-1', state: { topic: 'billing', turns: 3 } });
  await createSession({ appName, userId: 'vic', sessionId: 'refund-2', state: { topic: 'refund' } });
  await createSession({ appName, userId: 'vic', sessionId: 'no-topic' });
  await setSharedState({ appName, userId: 'vic', state: { plan: 'pro' } });
  const table = page.getByRole('table', { name: `Sessions of ${appName}` });
  const form = page.getByRole('search', { name: 'Search sessions' });
  const found = async () => (await sessionIds(table)).sort();

  await page.goto(appPath(appName));
  await form.getByLabel('Session id contains').fill('REFUND');
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(`${appPath(appName)}?q=REFUND`);
  await expect(page.getByText('Showing 1–2 of 2 sessions')).toBeVisible();
  await expect.poll(found).toEqual(['refund-1', 'refund-2']);

  await form.getByRole('button', { name: 'Clear' }).click();
  await expect(page).toHaveURL(appPath(appName));
  await expect(form.getByLabel('Session id contains')).toHaveValue('');
  await form.getByLabel('State key', { exact: true }).fill('topic');
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(`${appPath(appName)}?key=topic`);
  await expect(page.getByText('Showing 1–3 of 3 sessions')).toBeVisible();
  await expect.poll(found).toEqual(['billing-1', 'refund-1', 'refund-2']);

  await form.getByLabel('Value', { exact: true }).fill('refund');
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(`${appPath(appName)}?key=topic&value=refund`);
  await expect(page.getByText('Showing 1–2 of 2 sessions')).toBeVisible();
  await expect.poll(found).toEqual(['refund-1', 'refund-2']);

  // JSON values: 3 is the number, "3" the string.
  await page.goto(`${appPath(appName)}?key=turns&value=3`);
  await expect(form.getByLabel('State key', { exact: true })).toHaveValue('turns');
  await expect.poll(found).toEqual(['billing-1']);
  await page.goto(`${appPath(appName)}?key=turns&value=${encodeURIComponent('"3"')}`);
  await expect(page.getByRole('heading', { name: 'No session matches' })).toBeVisible();

  // A user-scoped key finds every session of the users holding it.
  await page.goto(`${appPath(appName)}?key=${encodeURIComponent('user:plan')}&value=pro`);
  await expect.poll(found).toEqual(['no-topic', 'refund-2']);

  // The same search on a user page stays within that user's sessions.
  await page.goto(`${userPath(appName, 'una')}?key=topic`);
  await expect.poll(() => sessionIds(page.getByRole('table', { name: 'Sessions of user una' }))).toHaveLength(2);
  await page.goto(`${userPath(appName, 'una')}?q=refund`);
  await expect.poll(() => sessionIds(page.getByRole('table', { name: 'Sessions of user una' }))).toEqual(['refund-1']);
});

test('searches an app’s users by id', async ({ page, createSession }) => {
  const appName = uniqueName('nav-users');
  for (const userId of ['carol@example.com', 'carl', 'dave']) await createSession({ appName, userId });
  const table = page.getByRole('table', { name: `Users of ${appName}` });

  await page.goto(`${appPath(appName)}?tab=users`);
  const form = page.getByRole('search', { name: 'Search users' });
  await form.getByLabel('User id contains').fill('CAR');
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(`${appPath(appName)}?tab=users&q=CAR`);
  // Most recent first: carl's session is newer than carol's.
  await expect(table.locator('tbody tr td:first-child')).toHaveText(['carl', 'carol@example.com']);

  await page.goto(`${appPath(appName)}?tab=users&q=nobody`);
  await expect(page.getByRole('heading', { name: 'No user matches' })).toBeVisible();
});

test('shows app state on the app page and user state on the user page', async ({ page, createSession, setSharedState }) => {
  const appName = uniqueName('nav-state');
  await createSession({ appName, userId: 'wes', sessionId: 'w1' });
  await setSharedState({ appName, state: { model: 'gemini-2.5-flash', limits: { turns: 40 } } });
  await setSharedState({ appName, userId: 'wes', state: { plan: 'enterprise' } });
  // A user known only by their state: the page exists and says there are no sessions.
  await setSharedState({ appName, userId: 'ghost', state: { plan: 'free' } });

  await page.goto(appPath(appName));
  const appState = page.getByRole('list', { name: 'App state' });
  await expect(appState.getByRole('listitem', { name: 'model' })).toContainText('gemini-2.5-flash');
  await expect(appState.getByRole('listitem', { name: 'limits' })).toContainText('turns');
  await expect(appState.getByRole('listitem', { name: 'model' })).toContainText('edited by e2e-fixture');

  await page.goto(userPath(appName, 'wes'));
  await expect(page.getByRole('list', { name: 'User state' }).getByRole('listitem', { name: 'plan' })).toContainText('enterprise');

  await page.goto(userPath(appName, 'ghost'));
  await expect(page.getByRole('heading', { level: 1, name: 'ghost' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No sessions' })).toBeVisible();
});

test('an unknown app or user is a 404 that names what is missing', async ({ page, createSession }) => {
  const appName = uniqueName('nav-404');
  await createSession({ appName, userId: 'known', sessionId: 'k1' });
  const missingApp = uniqueName('no-such-app');

  let response = await page.goto(appPath(missingApp));
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByText(`There is no app “${missingApp}”`)).toBeVisible();

  response = await page.goto(userPath(appName, 'stranger'));
  expect(response?.status()).toBe(404);
  await expect(page.getByText(`There is no user “stranger” in app “${appName}”`)).toBeVisible();

  // The user's pages below it too, sessions included.
  response = await page.goto(sessionPath(appName, 'stranger', 'k1'));
  expect(response?.status()).toBe(404);

  await page.getByRole('link', { name: 'Back to all apps' }).click();
  await expect(page).toHaveURL('/apps');
});

test('the theme switch picks light, dark or the system theme, and remembers it', async ({ page }) => {
  const html = page.locator('html');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const theme = page.getByRole('group', { name: 'Theme' });
  const LIGHT = 'rgb(246, 247, 249)';
  const DARK = 'rgb(15, 17, 21)';

  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/apps');
  await expect(theme.getByRole('radio', { name: 'System' })).toBeChecked();
  expect(await background()).toBe(LIGHT);

  await theme.getByRole('radio', { name: 'Dark' }).check();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  expect(await background()).toBe(DARK);

  // Applied before first paint on the next load, and shown as the choice.
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  expect(await background()).toBe(DARK);
  await expect(theme.getByRole('radio', { name: 'Dark' })).toBeChecked();

  await theme.getByRole('radio', { name: 'System' }).check();
  await expect(html).not.toHaveAttribute('data-theme');
  expect(await background()).toBe(LIGHT);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await background()).toBe(DARK);

  await theme.getByRole('radio', { name: 'Light' }).check();
  await expect(html).toHaveAttribute('data-theme', 'light');
  expect(await background()).toBe(LIGHT);
});

test('a skip link leads keyboard users past the header', async ({ page }) => {
  await page.goto('/apps');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await skip.press('Enter');
  await expect(page.locator('main')).toBeFocused();
});
