// The session operations' buttons as each role sees them (protected mode):
// a viewer gets none, support forks, rewinds, exports and titles, only an
// admin deletes; each button does what it says.
import type { Page } from '@playwright/test';
import { appendEvent } from '../lib/session-service/append';
import { capability } from '../lib/session-service/operations';
import type { Session, SessionStore } from '../lib/session-service';
import { expect, test } from './auth-fixtures';
import { eventRow, refOf, sessionUrl } from './support/session-page';

async function conversation(service: SessionStore, session: Session): Promise<void> {
  const step = (invocationId: string, stateDelta: Record<string, string | number>) => ({
    author: 'agent',
    invocationId,
    content: { role: 'model', parts: [{ text: `turn ${invocationId}` }] },
    actions: { stateDelta },
  });
  await appendEvent(service, session, step('inv-1', { topic: 'tea', step: 1 }));
  await appendEvent(service, session, step('inv-2', { topic: 'coffee', step: 2 }));
  await appendEvent(service, session, step('inv-3', { step: 3, 'user:lang': 'en' }));
}

const operations = (page: Page) => page.getByRole('group', { name: 'Session operations' });

test('a viewer sees the title and fork links but no operation buttons', async ({ page, service, createSession, signInAs }) => {
  const session = await createSession();
  await conversation(service, session);
  await service.setSessionMeta!(refOf(session), { title: 'Lost luggage', labels: ['vip'] }, { actor: 'e2e' });
  await signInAs('viewer', sessionUrl(session));
  await expect(page.getByText('Lost luggage')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Labels' })).toContainText('vip');
  await expect(operations(page)).toHaveCount(0);
  for (const name of ['Fork', 'Rewind', 'Export', 'Delete…', 'Title and labels']) {
    await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
});

test('support forks at an event, and both sessions show the link', async ({ page, service, protectedUrl, createSession, signInAs }) => {
  const session = await createSession({ state: { 'user:name': 'Ada' } });
  await conversation(service, session);
  await signInAs('support', sessionUrl(session));
  await expect(operations(page).getByRole('button', { name: 'Delete…' })).toHaveCount(0);

  await operations(page).getByRole('button', { name: 'Fork' }).click();
  const form = page.getByRole('form', { name: 'Fork this session' });
  await expect(form).toContainText('App and user state are shared, not copied');
  await form.getByLabel(/After event #/).fill('2');
  await form.getByLabel(/New session id/).fill(`${session.id}-fork`);
  await form.getByRole('button', { name: 'Fork' }).click();

  await expect(page).toHaveURL(new RegExp(`${session.id}-fork$`));
  await expect(page.getByTestId('session-meta')).toContainText(`Forked from ${session.id} at #2`);
  const fork = await service.getSession({ ...refOf(session), sessionId: `${session.id}-fork` });
  expect(fork?.events).toHaveLength(2);
  expect(fork?.state).toMatchObject({ topic: 'coffee', step: 2, 'user:name': 'Ada', 'user:lang': 'en' });

  await page.goto(protectedUrl + sessionUrl(session));
  await expect(page.getByTestId('session-meta')).toContainText(`Forks: ${session.id}-fork (at #2, compare)`);
  await service.deleteSession({ ...refOf(session), sessionId: `${session.id}-fork` });
});

test('support rewinds to before an invocation; the timeline shows the rewind', async ({ page, service, createSession, signInAs }) => {
  const session = await createSession();
  await conversation(service, session);
  await signInAs('support', sessionUrl(session));

  await operations(page).getByRole('button', { name: 'Rewind' }).click();
  const form = page.getByRole('form', { name: 'Rewind this session' });
  await form.getByLabel('Rewind to before invocation').fill('inv-2');
  await form.getByRole('button', { name: 'Rewind' }).click();
  await expect(form.getByRole('status')).toContainText('Rewound to before inv-2: undid 2 events; restored topic, step.');
  await expect(eventRow(page, 4).getByTestId('rewind-note')).toContainText(
    'Rewind to before invocation inv-2: undid events #2–#3; restored topic, step.',
  );
  const after = await service.getSession(refOf(session));
  expect(after?.state).toMatchObject({ topic: 'tea', step: 1, 'user:lang': 'en' });
  expect(after?.events.at(-1)).toMatchObject({ author: 'user', actions: { rewindBeforeInvocationId: 'inv-2' } });
});

test('support sets a title and labels, and exports the session file', async ({ page, service, createSession, signInAs }) => {
  const session = await createSession();
  await conversation(service, session);
  await signInAs('support', sessionUrl(session));

  await operations(page).getByRole('button', { name: 'Title and labels' }).click();
  const form = page.getByRole('form', { name: 'Title and labels' });
  await form.getByLabel('Title').fill('Refund for order 42');
  await form.getByLabel(/Labels/).fill('billing, vip');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('session-meta')).toContainText('Refund for order 42');
  expect(await service.getSessionMeta!(refOf(session))).toMatchObject({ title: 'Refund for order 42', labels: ['billing', 'vip'] });

  const download = page.waitForEvent('download');
  await operations(page).getByRole('link', { name: 'Export' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${session.id}.session.json`);
});

test('only an admin deletes: counted first, then deleted with a reason', async ({ page, service, createSession, signInAs }) => {
  const session = await createSession();
  await conversation(service, session);
  const admin = await signInAs('admin', sessionUrl(session));

  await operations(page).getByRole('button', { name: 'Delete…' }).click();
  const form = page.getByRole('form', { name: 'Delete from this session' });
  await form.getByLabel('The events of one invocation').check();
  await form.getByLabel('Invocation', { exact: true }).fill('inv-2');
  await expect(form.getByRole('button', { name: 'Delete', exact: true })).toBeDisabled();
  await form.getByRole('button', { name: 'Count what would be deleted' }).click();
  await expect(form.getByTestId('prune-count')).toHaveText('Would delete 1 event.');
  await form.getByLabel(/Reason/).fill('customer asked');
  await form.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Deleted 1 event.' })).toBeVisible();
  expect((await service.getSession(refOf(session)))?.events.map((event) => event.invocationId)).toEqual(['inv-1', 'inv-3']);
  const history = await service.listOperations!({ appName: session.appName, sessionId: session.id });
  expect(history.items[0]).toMatchObject({ kind: 'prune', actor: admin.name, reason: 'customer asked' });
});

test('support imports an exported session into a user after a preview; a viewer has no import', async ({
  page,
  service,
  protectedUrl,
  createSession,
  signInAs,
}) => {
  const session = await createSession();
  await conversation(service, session);
  await capability(service, 'setSessionMeta')(refOf(session), { title: 'Refund follow-up' }, { actor: 'e2e' });
  await signInAs('support', sessionUrl(session));
  const download = page.waitForEvent('download');
  await operations(page).getByRole('link', { name: 'Export' }).click();
  const file = await (await download).path();

  await page.goto(`${protectedUrl}/apps/${encodeURIComponent(session.appName)}/users/${encodeURIComponent(session.userId)}`);
  const bar = page.getByRole('group', { name: 'Sessions transfer' });
  await expect(bar.getByRole('link', { name: 'Export sessions (JSON Lines)' })).toBeVisible();
  await bar.getByRole('button', { name: 'Import sessions' }).click();
  const form = page.getByRole('form', { name: 'Import sessions' });
  await form.getByLabel('Give every session a new id').check();
  await form.getByLabel('File').setInputFiles(file);
  // An event sets user:lang: refused in the preview until the import is to write it into the user's state.
  await expect(form.getByRole('status', { name: 'Import preview' })).toContainText('Would create 0; 0 already exist; 1 invalid.');
  await expect(form.getByRole('status', { name: 'Import preview' })).toContainText('user:lang');
  await form.getByLabel(/Apply the events’ app and user state changes/).check();
  await expect(form.getByRole('status', { name: 'Import preview' })).toContainText('Would create 1; 0 already exist; 0 invalid.');
  expect((await service.searchSessions({ appName: session.appName, userId: session.userId })).total).toBe(1);
  await form.getByRole('button', { name: 'Import 1 sessions' }).click();
  await expect(form.getByRole('status', { name: 'Import preview' })).toContainText('Imported 1');
  // Walk-through item 6 (issue 24): the row said "will be created" after the import, and the copy lost its title and creation time.
  await expect(form.getByRole('status', { name: 'Import preview' }).getByRole('listitem')).toContainText('(3 events) created');
  const sessions = await service.searchSessions({ appName: session.appName, userId: session.userId });
  expect(sessions.total).toBe(2);
  const copy = sessions.items.find((item) => item.id !== session.id);
  expect(copy).toMatchObject({ title: 'Refund follow-up' });
  expect(copy!.createTime).toBeCloseTo((await service.getSession(refOf(session)))!.events[0]!.timestamp, 3);
  for (const item of sessions.items) if (item.id !== session.id) await service.deleteSession({ ...refOf(session), sessionId: item.id });

  await page.context().clearCookies();
  await signInAs('viewer', `/apps/${encodeURIComponent(session.appName)}/users/${encodeURIComponent(session.userId)}`);
  await expect(page.getByRole('group', { name: 'Sessions transfer' })).toHaveCount(0);
});

test('only an admin is offered to delete idle sessions of an app', async ({ page, service, createSession, signInAs }) => {
  const session = await createSession();
  await appendEvent(service, session, { author: 'user', timestamp: Date.now() / 1000 - 400 * 86_400 });
  const fresh = await createSession({ appName: session.appName, userId: session.userId });
  const appUrl = `/apps/${encodeURIComponent(session.appName)}`;
  await signInAs('support', appUrl);
  await expect(page.getByRole('button', { name: 'Delete idle sessions…' })).toHaveCount(0);

  await page.context().clearCookies();
  await signInAs('admin', appUrl);
  await page.getByRole('button', { name: 'Delete idle sessions…' }).click();
  const form = page.getByRole('form', { name: 'Delete idle sessions' });
  await form.getByLabel(/Idle for more than/).fill('365');
  await form.getByRole('button', { name: 'Count what would be deleted' }).click();
  await expect(form.getByTestId('prune-count')).toHaveText('Would delete 1 session with 1 event.');
  expect(await service.getSession(refOf(session))).not.toBeNull();
  await form.getByLabel(/Reason/).fill('retention test');
  await form.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Deleted 1 session with 1 event.' })).toBeVisible();
  expect(await service.getSession(refOf(session))).toBeNull();
  expect(await service.getSession(refOf(fresh))).not.toBeNull();
});
