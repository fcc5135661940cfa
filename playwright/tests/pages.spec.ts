// Every page object locator resolves on every page type it is for, and every
// interactive element of those pages has a role and an accessible name (so
// no suite needs a CSS selector).
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, test, type SeededSession } from '../index.js';

/** axe's rules for elements a person (or a role locator) could not name. */
const NAME_RULES = [
  'button-name',
  'link-name',
  'label',
  'select-name',
  'input-button-name',
  'aria-command-name',
  'aria-input-field-name',
  'aria-toggle-field-name',
  'aria-dialog-name',
  'aria-progressbar-name',
  'aria-meter-name',
  'aria-tooltip-name',
  'image-alt',
  'frame-title',
];

async function expectEveryElementNamed(page: Page, where: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withRules(NAME_RULES).analyze();
  const found = violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`);
  expect(found, `unnamed elements on ${where}`).toEqual([]);
}

async function expectAll(locators: Record<string, Locator>): Promise<void> {
  for (const [name, locator] of Object.entries(locators)) {
    await expect(locator, name).toBeVisible();
    await expect(locator, `${name} is one element`).toHaveCount(1);
  }
}

let session: SeededSession;

test.beforeEach(async ({ statehouse }) => {
  await statehouse.seed({ session: false, state: { 'app:tone': 'warm', 'user:plan': 'pro' } });
  session = await statehouse.seed({
    session: 'visit',
    state: { 'user:name': 'Ada', topic: 'tea' },
    events: [
      { author: 'user', content: { role: 'user', parts: [{ text: 'I like jazz.' }] } },
      { author: 'concierge', actions: { stateDelta: { topic: 'jazz', 'user:likes': ['jazz'] } } },
    ],
  });
});

test('apps page', async ({ statehouse, statehouseConsole }) => {
  const apps = await statehouseConsole.apps();
  await expectAll({
    heading: apps.heading,
    mainNavigation: apps.mainNavigation,
    breadcrumbs: apps.breadcrumbs,
    table: apps.table,
    search: apps.search,
    appLink: apps.appLink(statehouse.appName),
    appRow: apps.appRow(statehouse.appName),
  });
  await expectEveryElementNamed(apps.page, 'the apps page');
});

test('app page, with its sessions and users', async ({ statehouse, statehouseConsole }) => {
  test.slow(); // many pages and an axe scan each
  const app = await statehouseConsole.app(statehouse.appName);
  await expectAll({
    heading: app.heading,
    column: app.state.column('app'),
    row: app.stateRow('app', 'tone'),
    prefixedRow: app.stateRow('app', 'app:tone'),
    edit: app.state.editButton('app', 'tone'),
    remove: app.state.removeButton('app', 'tone'),
    history: app.state.historyButton('app', 'tone'),
    addKey: app.state.addKeyButton('app'),
    sessionsTable: app.sessionsTable,
    sessionLink: app.sessionLink(session.sessionId),
    usersTab: app.usersTab,
    sessionsTab: app.sessionsTab,
  });
  await expect(app.stateRow('app', 'tone')).toContainText('"warm"');
  await expectEveryElementNamed(app.page, 'the app page');
  await app.state.historyButton('app', 'tone').click();
  await expect(app.state.historyButton('app', 'tone')).toHaveAttribute('aria-expanded', 'true');
  await expectEveryElementNamed(app.page, "the app page with a key's history open");
  await app.state.addKeyButton('app').click();
  await expectAll({ dialog: app.state.editDialog.root, key: app.state.editDialog.keyField, value: app.state.editDialog.valueField });
  await expectEveryElementNamed(app.page, 'the add-key dialog');
  await app.state.editDialog.cancelButton.click();
  await app.usersTab.click();
  await expect(app.page.getByRole('link', { name: session.userId, exact: true })).toBeVisible();
  await expectEveryElementNamed(app.page, "the app's users");
});

test('user page', async ({ statehouse, statehouseConsole }) => {
  const user = await statehouseConsole.user(statehouse.appName, session.userId);
  await expectAll({
    heading: user.heading,
    row: user.stateRow('user', 'plan'),
    edit: user.state.editButton('user', 'name'),
    addKey: user.state.addKeyButton('user'),
    history: user.history,
    sessionsTable: user.sessionsTable,
    sessionLink: user.sessionLink(session.sessionId),
  });
  await expectEveryElementNamed(user.page, 'the user page');
});

test('session page: tiers, timeline, time travel, append form and edit dialog', async ({ statehouseConsole }) => {
  test.setTimeout(180_000); // six states of the page, an axe scan each: 70 s on a machine at load 35
  const view = await statehouseConsole.session(session);
  await expectAll({
    appRow: view.stateRow('app', 'tone'),
    userRow: view.stateRow('user', 'user:likes'),
    sessionRow: view.stateRow('session', 'topic'),
    mergedRow: view.stateRow('merged', 'user:name'),
    userEdit: view.state.editButton('user', 'plan'),
    timeline: view.timeline,
    firstEvent: view.eventAt(0),
    secondEvent: view.event(2),
    change: view.eventChange(2, 'user:likes'),
    stateAfter: view.stateAfterButton(1),
    appendButton: view.appendButton,
  });
  await expect(view.events).toHaveCount(2);
  await expect(view.stateRow('session', 'topic')).toContainText('"jazz"');
  await expectEveryElementNamed(view.page, 'the session page');

  await view.travelTo(1);
  await expectAll({ banner: view.timeTravelBanner, backToNow: view.backToNowButton });
  await expect(view.stateRow('session', 'topic')).toContainText('"tea"');
  await expectEveryElementNamed(view.page, 'the session page in time travel');
  await view.backToNow();
  await expect(view.stateRow('session', 'topic')).toContainText('"jazz"');

  await view.appendButton.click();
  await expectAll({
    form: view.appendForm,
    author: view.appendAuthor,
    invocation: view.appendInvocation,
    text: view.appendText,
    delta: view.appendStateDelta,
    submit: view.appendSubmit,
  });
  await expectEveryElementNamed(view.page, 'the append form');
  await view.appendEvent({ author: 'support', text: 'Noted.', stateDelta: { topic: 'blues' } });
  await expect(session).toHaveEventCount(3);
  await expect(session).toHaveEvent({ author: 'support', text: 'Noted.', stateDelta: { topic: 'blues' } });
  await expect(view.event(3)).toBeVisible();

  await view.state.editButton('user', 'plan').click();
  const dialog = view.state.editDialog;
  await expectAll({
    dialog: dialog.root,
    value: dialog.valueField,
    reason: dialog.reasonField,
    review: dialog.reviewButton,
    cancel: dialog.cancelButton,
  });
  await expectEveryElementNamed(view.page, 'the edit dialog');
  await dialog.save('free', 'customer downgraded');
  await expect(session).toHaveStateKey('user:plan', 'free');
  await expect(view.stateRow('user', 'plan')).toContainText('"free"');
});

test('template preview, accounts, sign-in and not-found pages name every element too', async ({ statehouseConsole, page }) => {
  for (const path of ['/preview', '/admin/accounts', '/apps/no-such-app-here/users/nobody/sessions/none']) {
    await page.goto(statehouseConsole.url(path));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectEveryElementNamed(page, path);
  }
  const protectedUrl = process.env.E2E_PROTECTED_URL;
  test.skip(!protectedUrl, 'no protected console in this run');
  await page.goto(`${protectedUrl}/sign-in`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectEveryElementNamed(page, 'the sign-in page');
});
