// One page of every type the console has, with data on it, for the specs that
// check every page the same way (phone width, accessibility): a session with
// a conversation, app and user state (one key and value right-to-left), and
// the addresses that show them.
import type { Page } from '@playwright/test';
import { ACCOUNTS_PATH, APPS_PATH, appPath, auditPath, comparePath, sessionPath, userPath } from '../../lib/paths';
import type { Session, SessionStore } from '../../lib/session-service';
import { appendEvents, stateDeltaEvent, textEvent, toolCallEvents, uniqueName, type SessionOverrides } from '../../lib/testing/factories';
import type { SharedState } from '../fixtures';

export interface PageType {
  name: string;
  path: string;
}

interface Setup {
  service: SessionStore;
  createSession: (overrides?: SessionOverrides) => Promise<Session>;
  setSharedState: (shared: SharedState) => Promise<void>;
}

export async function makePageTypes({ service, createSession, setSharedState }: Setup): Promise<PageType[]> {
  const session = await createSession({
    appName: uniqueName('e2e-pages'),
    userId: 'maria.silva-with-a-rather-long-user-id',
    sessionId: uniqueName('a-session-id-long-enough-to-wrap'),
    state: { 'user:plan': 'pro', 'user:preferred_language': 'ar', topic: 'refund' },
  });
  const { appName, userId } = session;
  await appendEvents(
    service,
    session,
    [
      textEvent('user', 'I was charged twice. مرحبا'),
      ...toolCallEvents(
        'support_agent',
        { name: 'lookup_order', args: { order_id: '4711' }, response: { status: 'delivered' } },
        {
          stateDelta: { order_id: '4711', 'user:open_tickets': 1, 'temp:raw': 2 },
        },
      ),
      textEvent('support_agent', 'Refund issued.', { stateDelta: { refund: { id: 're_9c2', status: 'pending', amounts: [49.9] } } }),
      stateDeltaEvent('support_agent', { 'app:refunds_today': 1, 'user:اللغة': 'العربية' }),
    ],
    { startAt: Date.now() / 1000 - 3600, spacingSeconds: 30 },
  );
  await setSharedState({ appName, state: { support_hours: 'Mon–Fri 08:00–18:00 CET', limits: { max_turns: 40 } } });
  await setSharedState({ appName, userId, state: { vip: true } });
  const other = await createSession({
    appName,
    userId,
    sessionId: uniqueName('another-session'),
    state: { topic: 'upgrade', 'user:plan': 'pro' },
  });
  const otherUser = await createSession({ appName, sessionId: uniqueName('a-session-of-someone-else'), state: { 'user:plan': 'free' } });
  const ref = `app=${encodeURIComponent(appName)}&user=${encodeURIComponent(userId)}&session=${encodeURIComponent(session.id)}`;
  return [
    { name: 'apps', path: APPS_PATH },
    { name: 'app', path: appPath(appName) },
    { name: 'app users', path: `${appPath(appName)}?tab=users` },
    { name: 'app events', path: `${appPath(appName)}?tab=events&text=refund` },
    { name: 'app, filtered', path: `${appPath(appName)}?key=topic&value=refu&sort=oldest` },
    { name: 'user', path: userPath(appName, userId) },
    { name: 'session', path: sessionPath(appName, userId, session.id) },
    { name: 'session in the past', path: `${sessionPath(appName, userId, session.id)}?event=2` },
    { name: 'template preview', path: '/preview' },
    { name: 'template preview of a session', path: `/preview?${ref}&template=${encodeURIComponent('Hi {user:plan}, {topic}')}` },
    { name: 'compare: choose a session', path: comparePath({ appName, userId, sessionId: session.id }) },
    { name: 'compare sessions', path: comparePath({ appName, userId, sessionId: session.id }, { appName, userId, sessionId: other.id }) },
    { name: 'compare users', path: comparePath({ appName, userId }, { appName, userId: otherUser.userId }) },
    { name: 'audit log of the app', path: auditPath({ app: appName }) },
    { name: 'audit log, nothing matches', path: auditPath({ actor: 'nobody-at-all' }) },
    { name: 'accounts', path: ACCOUNTS_PATH },
    { name: 'not found', path: `${appPath(appName)}/users/${encodeURIComponent(userId)}/sessions/no-such-session` },
  ];
}

/** Waits until client-side reads have answered (histories, live polls, previews). */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page
    .getByRole('status', { name: /^Loading/ })
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}
