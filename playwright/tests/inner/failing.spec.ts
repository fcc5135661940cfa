// Fails on purpose (runs.spec.ts runs it as a child and reads its report):
// the report must hold the session's JSON and a screenshot of its page.
import { expect, test } from '../../index.js';

test('a test whose agent never writes what it expects', async ({ statehouse }) => {
  const session = await statehouse.seed({ session: 'doomed', state: { topic: 'tea', 'user:name': 'Ada' } });
  await expect(session).toHaveState({ topic: 'coffee' }, { timeout: 300 });
});
