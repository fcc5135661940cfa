// What a failed test leaves in the Playwright report for each session it
// seeded or named: the session as the API serves it (state and every event)
// and a screenshot of its console page.
import type { Browser, TestInfo } from '@playwright/test';
import type { StatehouseClient } from './client.js';
import { StatehouseConsole } from './console/console.js';
import { describeRef } from './handles.js';
import type { SessionRef } from './types.js';

function fileSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
}

export async function attachSessions(
  sessions: readonly SessionRef[],
  client: StatehouseClient,
  testInfo: TestInfo,
  browser: Browser | null,
): Promise<void> {
  for (const ref of sessions) {
    const name = `statehouse-${fileSafe(ref.userId)}-${fileSafe(ref.sessionId)}`;
    try {
      const session = await client.getSession(ref);
      const body = session ?? { missing: `No session ${describeRef(ref)} (never created, or deleted).` };
      await testInfo.attach(`${name}.json`, { body: JSON.stringify(body, null, 2), contentType: 'application/json' });
    } catch (error) {
      await testInfo.attach(`${name}.json`, { body: `Could not read ${describeRef(ref)}: ${String(error)}`, contentType: 'text/plain' });
    }
    if (!browser) continue;
    // A page of its own: the test's page may be closed, elsewhere or mid-navigation.
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    try {
      const view = await new StatehouseConsole(await context.newPage(), client).session(ref);
      await testInfo.attach(`${name}.png`, { body: await view.page.screenshot({ fullPage: true }), contentType: 'image/png' });
    } catch (error) {
      await testInfo.attach(`${name}.png.txt`, {
        body: `No screenshot of ${describeRef(ref)}: ${String(error)}`,
        contentType: 'text/plain',
      });
    } finally {
      await context.close();
    }
  }
}
