// Screenshots of the apps, app and user pages for the README, written to
// docs/screenshots/ only when asked (they change with every pixel of the UI):
//
//   STATEHOUSE_SCREENSHOTS=1 npx playwright test e2e/navigation-screenshots.spec.ts
//
// Run it alone: the apps page shows every app in the run's database.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { appendEvents, stateDeltaEvent, textEvent } from '../lib/testing/factories';
import { appPath, userPath } from '../lib/paths';
import { expect, test } from './fixtures';
import { projectRoot } from './support/database';

const enabled = Boolean(process.env.STATEHOUSE_SCREENSHOTS);
const directory = join(projectRoot, 'docs', 'screenshots');
const HOUR = 3600;

test.skip(!enabled, 'set STATEHOUSE_SCREENSHOTS=1 to write docs/screenshots/');

async function shoot(page: Page, name: string): Promise<void> {
  // Lists streamed in, client-side reads (state history) answered.
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
  await page.screenshot({ path: join(directory, `${name}.png`), fullPage: true });
}

test('apps, app and user pages', async ({ page, service, createSession, setSharedState }) => {
  test.setTimeout(120_000);
  const now = Date.now() / 1000;
  const app = 'travel-concierge';
  const users = ['maria.silva', 'kenji.tanaka', 'amara.okafor', 'liam.byrne', 'sofia.rossi'];
  const topics = ['rebook flight', 'hotel in Lisbon', 'lost luggage', 'visa question', 'seat upgrade'];
  let n = 0;
  for (const [u, userId] of users.entries()) {
    for (let s = 0; s < 3 - (u % 2); s += 1) {
      n += 1;
      const topic = topics[(u + s) % topics.length] ?? 'trip';
      const session = await createSession({ appName: app, userId, sessionId: `trip-${1000 + n}`, state: { topic } });
      await appendEvents(
        service,
        session,
        [
          textEvent('user', `Hi, I need help with: ${topic}`),
          textEvent('concierge', 'Of course. Let me look at your booking.', { stateDelta: { step: 'lookup', 'temp:draft': 1 } }),
          stateDeltaEvent('concierge', { step: 'resolved', 'user:last_topic': topic }),
        ].slice(0, 1 + ((u + s) % 3)),
        { startAt: now - (n * 5 + u * 11) * HOUR, spacingSeconds: 40 },
      );
    }
  }
  const support = await createSession({ appName: 'support-bot', userId: 'guest-42', sessionId: 'chat-7f3a' });
  await appendEvents(service, support, [textEvent('user', 'Where is my order?')], { startAt: now - 3 * 24 * HOUR });
  await createSession({ appName: 'weather-agent', userId: 'demo', sessionId: 'forecast-1' });

  await setSharedState({
    appName: app,
    state: {
      model: 'gemini-2.5-flash',
      greeting: 'Welcome back! Where are we travelling today?',
      limits: { max_turns: 40, max_tool_calls: 12 },
    },
  });
  await setSharedState({
    appName: app,
    userId: 'maria.silva',
    state: { plan: 'premium', home_airport: 'LIS', preferences: { seat: 'aisle', meals: ['vegetarian'] } },
  });

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/apps');
  await shoot(page, 'apps');

  await page.goto(appPath(app));
  await shoot(page, 'app');

  await page.goto(`${appPath(app)}?tab=users`);
  await shoot(page, 'app-users');

  await page.goto(userPath(app, 'maria.silva'));
  await shoot(page, 'user');

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${appPath(app)}?key=topic&value=${encodeURIComponent('lost luggage')}`);
  await shoot(page, 'app-search-dark');

  // A phone: the user page at 390 px.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(userPath(app, 'maria.silva'));
  await shoot(page, 'user-phone');
});
