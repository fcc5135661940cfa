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
