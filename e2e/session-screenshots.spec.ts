// The session page in light and dark, with a realistic conversation. Always
// checks both themes render; writes docs/screenshots/session*.png only with
// STATEHOUSE_SCREENSHOTS=1 (committed images change only on purpose).
import { join } from 'node:path';
import { appendEvents, invocationId, stateDeltaEvent, textEvent, toolCallEvents } from '../lib/testing/factories';
import { expect, test } from './fixtures';
import { projectRoot } from './support/database';
import { eventRow, openSession } from './support/session-page';

const WRITE = process.env.STATEHOUSE_SCREENSHOTS === '1';

test.use({ viewport: { width: 1440, height: 1100 } });

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the session page renders in the ${colorScheme} theme`, async ({ page, service, createSession }) => {
    await page.emulateMedia({ colorScheme });
    const session = await createSession({
      // Readable names for the picture; one user per theme, so the two tests share no user state.
      appName: 'helpdesk',
      userId: colorScheme === 'dark' ? 'bob' : 'alice',
      sessionId: 'refund-order-4711',
      state: { 'app:model': 'gemini-2.5-flash', 'app:refund_limit_eur': 200, 'user:name': 'Alice', 'user:plan': 'free' },
    });
    const turn = invocationId();
    const upgrade = invocationId();
    await appendEvents(
      service,
      session,
      [
        textEvent('user', 'Hi! Order 4711 arrived broken. Can I get a refund?', { invocationId: turn }),
        ...toolCallEvents(
          'support_agent',
          { name: 'lookup_order', args: { order_id: '4711' }, response: { status: 'delivered', total_eur: 89.9, items: ['kettle'] } },
          { invocationId: turn, stateDelta: { order: { id: '4711', total_eur: 89.9 }, topic: 'refund' } },
        ),
        ...toolCallEvents(
          'support_agent',
          { name: 'issue_refund', args: { order_id: '4711', amount_eur: 89.9 }, response: { refund_id: 'r-5521', ok: true } },
          { invocationId: turn, stateDelta: { refund: { id: 'r-5521', amount_eur: 89.9 }, 'user:refunds': 1 } },
        ),
        textEvent('support_agent', 'Done: 89.90 EUR are on their way back to your card (refund r-5521).', { invocationId: turn }),
        textEvent('user', 'Thanks! Also, please upgrade me to Pro.', { invocationId: upgrade }),
        stateDeltaEvent(
          'billing_agent',
          { 'user:plan': 'pro' },
          { invocationId: upgrade, extra: { actions: { transferToAgent: 'billing_agent' } } },
        ),
        textEvent('billing_agent', 'You are on Pro now.', { invocationId: upgrade }),
      ],
      // After the session's creation (which stamped the initial app and user state), as a live agent's events are.
      { startAt: Date.now() / 1000, spacingSeconds: 0.4 },
    );

    await openSession(page, session, '?event=6');
    await expect(eventRow(page, 6)).toHaveAttribute('aria-current', 'true');
    await expect(page.getByRole('region', { name: 'Time travel' })).toBeVisible();
    // The theme's own background, not the other one's.
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe(colorScheme === 'dark' ? 'rgb(15, 17, 21)' : 'rgb(246, 247, 249)');

    if (WRITE) {
      const name = colorScheme === 'dark' ? 'session-dark.png' : 'session.png';
      await page.screenshot({ path: join(projectRoot, 'docs', 'screenshots', name), fullPage: true });
    }
  });
}
