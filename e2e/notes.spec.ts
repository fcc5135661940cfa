// Notes on a session: written on the session page, shown in the user's list
// of sessions, removed again (the audit log keeps them).
import { expect, test } from './fixtures';
import { sessionPath, userPath } from '../lib/paths';

test('a note left on a session shows on it and in the list, and can be removed', async ({ page, createSession }) => {
  const session = await createSession({ state: { topic: 'refund' } });
  await page.goto(sessionPath(session.appName, session.userId, session.id));
  const notes = page.getByRole('region', { name: /^Notes/ });
  await expect(notes.getByRole('heading')).toContainText('none yet');
  await notes.getByLabel('New note').fill('Carol was charged twice; refund pending with billing.');
  await notes.getByRole('button', { name: 'Add note' }).click();
  await expect(notes.getByRole('list', { name: 'Notes on this session' }).getByRole('listitem')).toContainText(
    'refund pending with billing',
  );
  await expect(notes.getByLabel('New note')).toHaveValue('');

  await page.goto(userPath(session.appName, session.userId));
  const row = page.getByRole('row', { name: new RegExp(session.id) });
  await expect(row).toContainText('Carol was charged twice');

  await page.goto(sessionPath(session.appName, session.userId, session.id));
  await notes.getByRole('button', { name: /^Remove the note by/ }).click();
  await expect(notes.getByRole('heading')).toContainText('none yet');
});
