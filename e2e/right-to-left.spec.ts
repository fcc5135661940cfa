// Keys and values in right-to-left scripts are isolated (<bdi>): they do not
// reorder the quotes, prefixes and colons around them.
import { expect, test } from './fixtures';
import { openSession, stateEntry } from './support/session-page';

test('right-to-left keys and values are isolated from the text around them', async ({ page, createSession }) => {
  const session = await createSession({ state: { 'user:اللغة': 'العربية', שם: { עיר: 'תל אביב' } } });
  await openSession(page, session);

  const key = stateEntry(page, 'User state', 'اللغة');
  await expect(key.locator('code bdi')).toHaveText('اللغة');
  await expect(key.locator('bdi').filter({ hasText: '"العربية"' })).toHaveCount(1);
  const merged = stateEntry(page, 'What the agent sees', 'user:اللغة');
  await expect(merged.locator('code bdi')).toHaveText('user:اللغة');

  const nested = stateEntry(page, 'Session state', 'שם');
  await expect(nested.locator('bdi', { hasText: 'עיר' })).toHaveCount(1);
  await expect(nested.locator('bdi', { hasText: '"תל אביב"' })).toHaveCount(1);
});
