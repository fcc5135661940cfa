// Every page type on a phone (390 px wide): nothing wider than the screen,
// the header's links on it, and the edit dialog inside it.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { makePageTypes, settle } from './support/page-types';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** How far the page reaches past the screen's right edge, and the widest elements that do. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const offenders = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 1)
      // Inside a box that scrolls sideways (a wide table) or cuts its text (truncate): the box is checked, not its content.
      .filter((element) => !element.parentElement?.closest('.overflow-x-auto, .truncate, .overflow-hidden'))
      .slice(0, 5)
      .map((element) => element.outerHTML.slice(0, 160));
    return { scrollWidth: document.documentElement.scrollWidth, width, offenders };
  });
}

test('every page type fits a 390 px phone screen', async ({ page, service, createSession, setSharedState }) => {
  test.setTimeout(120_000);
  const pages = await makePageTypes({ service, createSession, setSharedState });
  for (const { name, path } of pages) {
    await page.goto(path);
    await settle(page);
    const measured = await overflow(page);
    expect(measured, `${name} (${path})`).toEqual({ scrollWidth: 390, width: 390, offenders: [] });
    // Every link of the header is on the screen.
    for (const link of await page.getByRole('navigation', { name: 'Main' }).getByRole('link').all()) {
      const box = await link.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390, `${name}: ${await link.textContent()} on screen`).toBe(true);
    }
  }
});

test('the edit dialog fits a phone screen', async ({ page, createSession }) => {
  const { appName, userId } = await createSession({ state: { 'user:plan': 'free' } });
  await page.goto(`/apps/${encodeURIComponent(appName)}/users/${encodeURIComponent(userId)}`);
  await page.getByRole('button', { name: 'Edit user:plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user:plan' });
  await dialog.getByLabel('Value (JSON)').fill(JSON.stringify({ lines: Array.from({ length: 30 }, (_, i) => `line ${i}`) }, null, 2));
  const box = await dialog.boundingBox();
  expect(box).not.toBeNull();
  if (!box) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(844);
  // Its buttons are reachable (the dialog scrolls inside itself).
  await dialog.getByRole('button', { name: 'Review change' }).scrollIntoViewIfNeeded();
  await expect(dialog.getByRole('button', { name: 'Review change' })).toBeInViewport();
});

test('time travel on a phone: the banner stays small and leaves the comparison heading in view', async ({
  page,
  service,
  createSession,
}) => {
  // Walk-through item 3 (issue 24): the sticky banner took about 210 of 844 px and covered the compare heading.
  const session = await createSession({ state: { topic: 'refund' } });
  const ref = { appName: session.appName, userId: session.userId, sessionId: session.id };
  for (let n = 1; n <= 6; n += 1) {
    await service.append(ref, {
      author: 'agent',
      content: { role: 'model', parts: [{ text: `step ${n} `.repeat(40) }] },
      actions: { stateDelta: { step: n } },
    });
  }
  await page.goto(
    `/apps/${encodeURIComponent(ref.appName)}/users/${encodeURIComponent(ref.userId)}/sessions/${encodeURIComponent(ref.sessionId)}?event=5`,
  );
  const banner = page.getByRole('region', { name: 'Time travel' });
  await banner.getByLabel(/Compare with event/).fill('2');
  await banner.getByRole('button', { name: 'Compare', exact: true }).click();
  const heading = page.getByRole('heading', { name: 'From event #2 to event #5' });
  await expect(heading).toBeVisible();
  await expect
    .poll(async () => {
      const [bar, title] = await Promise.all([banner.boundingBox(), heading.boundingBox()]);
      return bar && title ? { bannerHeight: Math.round(bar.height), headingClear: title.y >= bar.y + bar.height } : null;
    })
    .toEqual({ bannerHeight: expect.any(Number), headingClear: true });
  expect((await banner.boundingBox())!.height).toBeLessThan(120);
});
