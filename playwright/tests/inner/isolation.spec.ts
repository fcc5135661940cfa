// Many tests seeding at once, in both namespace modes: each sees exactly what
// it seeded. Run with --workers 4 by runs.spec.ts, which also checks that
// nothing is left in the database afterwards.
import { expect, test } from '../../index.js';

const SHARED_APP = process.env.KIT_SHARED_APP ?? 'kit-shared';

for (const mode of ['app', 'user'] as const) {
  test.describe(`namespace ${mode}`, () => {
    test.use({ statehouseNamespace: mode, statehouseApp: mode === 'user' ? SHARED_APP : 'kit-iso' });

    for (let i = 0; i < 6; i += 1) {
      test(`test ${i} sees only its own sessions and state`, async ({ statehouse }) => {
        const first = await statehouse.seed({
          user: 'ada',
          session: 'conversation',
          state: { 'user:name': `Ada ${i}`, topic: `topic ${i}` },
          events: [{ author: 'agent', actions: { stateDelta: { step: 1, 'user:visits': i } } }],
        });
        const second = await statehouse.seed({ user: 'ada', state: { topic: 'second' } });
        // Every test uses the same user name and session id: only the namespace keeps them apart.
        await new Promise((resolve) => setTimeout(resolve, 200 + 50 * i));
        const listed = await statehouse.client.listSessions(statehouse.appName, statehouse.userId('ada'));
        expect(listed.map((s) => s.id).sort()).toEqual([first.sessionId, second.sessionId].sort());
        // Exact in an app of its own; the shared app's state shows in user mode.
        const shared: Record<string, string> = mode === 'user' ? { 'app:banner': 'keep me' } : {};
        await expect(first).toHaveState(
          { ...shared, 'user:name': `Ada ${i}`, 'user:visits': i, topic: `topic ${i}`, step: 1 },
          { exact: true },
        );
        await expect(second).toHaveStateKey('user:visits', i);
        await expect(first).toHaveEventCount(1);
      });
    }
  });
}
