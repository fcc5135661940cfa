// axe-core on every page type, in the light and the dark theme, at desktop and phone width: no
// violations, best practices included (heading order, unique landmarks).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { test as authTest } from './auth-fixtures';
import { makePageTypes, settle } from './support/page-types';

async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes
        .slice(0, 3)
        .map((node) => `    ${node.target.join(' ')}: ${node.failureSummary?.split('\n').slice(1, 2).join(' ')}`)
        .join('\n')}`,
  );
}

const PHONE = { width: 390, height: 844 };

for (const colorScheme of ['light', 'dark'] as const) {
  test(`every page type has no axe violations in the ${colorScheme} theme, desktop and phone`, async ({
    page,
    service,
    createSession,
    setSharedState,
  }) => {
    test.setTimeout(600_000);
    await page.emulateMedia({ colorScheme });
    const pages = await makePageTypes({ service, createSession, setSharedState });
    const found: string[] = [];
    for (const device of ['desktop', 'phone'] as const) {
      if (device === 'phone') await page.setViewportSize(PHONE);
      for (const { name, path } of pages) {
        await page.goto(path);
        await settle(page);
        for (const violation of await violations(page)) found.push(`${name} (${path}), ${device}: ${violation}`);
      }
    }
    expect(found, found.join('\n')).toEqual([]);
  });

  authTest(`the sign-in page has no axe violations in the ${colorScheme} theme`, async ({ page, protectedUrl }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto(`${protectedUrl}/sign-in`);
    expect(await violations(page)).toEqual([]);
  });
}
