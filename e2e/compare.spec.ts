// Compare: from a session page to the choice of a second session, then the
// two side by side, each tier marked and the events after a fork point.
import { expect, test } from './fixtures';
import { capability } from '../lib/session-service/operations';
import { appendEvents, stateDeltaEvent, textEvent, uniqueName } from '../lib/testing/factories';
import { comparePath, sessionPath } from '../lib/paths';

test('a session page leads to comparing it with its fork, tier by tier and event by event', async ({ page, service, createSession }) => {
  const session = await createSession({ userId: 'carol', state: { topic: 'refund', 'user:plan': 'pro' } });
  const source = { appName: session.appName, userId: session.userId, sessionId: session.id };
  await appendEvents(service, session, [
    textEvent('user', 'I was charged twice'),
    stateDeltaEvent('agent', { order: '4711' }),
    textEvent('agent', 'Refund issued'),
  ]);
  const forkId = uniqueName('what-if');
  await capability(service, 'forkSession')({ source, atSeq: 2, sessionId: forkId }, { actor: 'e2e' });
  const fork = { ...source, sessionId: forkId };
  try {
    await service.append(fork, stateDeltaEvent('agent', { topic: 'upgrade' }));

    await page.goto(sessionPath(source.appName, source.userId, source.sessionId));
    await page.getByRole('link', { name: 'Compare with…' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`session ${source.sessionId} with…`);
    await page.getByRole('link', { name: `session ${forkId}` }).click();

    await expect(page).toHaveURL(comparePath(source, fork));
    const sessionTier = page.getByRole('region', { name: /^Session state/ });
    await expect(sessionTier.getByRole('heading')).toContainText('1 difference in 2 keys');
    const topic = sessionTier.getByRole('row', { name: /topic/ });
    await expect(topic).toHaveAttribute('data-standing', 'changed');
    await expect(topic).toContainText('"refund"');
    await expect(topic).toContainText('"upgrade"');
    await expect(page.getByRole('region', { name: /^User state/ })).toContainText('the same tier on both sides');
    await expect(page.getByTestId('shared-events')).toHaveText('Both start with the same 2 events; then they part.');
    await expect(page.getByRole('list', { name: `session ${source.sessionId}: 1 event after that` }).getByRole('listitem')).toContainText(
      'Refund issued',
    );
    await expect(page.getByRole('list', { name: `session ${forkId}: 1 event after that` }).getByRole('listitem')).toContainText(
      'sets topic',
    );
  } finally {
    await service.deleteSession(fork);
  }
});

test('two users side by side, chosen by name in the form', async ({ page, createSession }) => {
  const first = await createSession({ state: { 'user:plan': 'pro', 'user:tier': 'gold' } });
  const second = await createSession({ appName: first.appName, state: { 'user:plan': 'free' } });
  await page.goto(comparePath({ appName: first.appName, userId: first.userId }));
  await page.getByRole('textbox', { name: 'User' }).fill(second.userId);
  await page.getByRole('button', { name: 'Compare' }).click();
  const userTier = page.getByRole('region', { name: /^User state/ });
  await expect(userTier.getByRole('heading')).toContainText('2 differences in 2 keys');
  await expect(userTier.getByRole('row', { name: /user:tier/ })).toHaveAttribute('data-standing', 'left-only');
});
