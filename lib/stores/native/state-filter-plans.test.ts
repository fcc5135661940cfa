// A combined filter such as `profile.age > 70` and `topic = login` over an
// app of 100,000 sessions took 466 ms on SQLite and 3,240 ms on PostgreSQL:
// each filter was evaluated over every state row of its key (100,000 JSON
// reads for profile.age) before the sessions were intersected. The exact
// compare now finds its sessions through (key, value prefix), and the nested
// filter is read for those sessions only. A plan shape check, not a timing
// (the bench times it: `npm run bench -- --search`).
import { sqltag as sql } from '@prisma/client/runtime/client';
import { describe, expect, it } from 'vitest';
import type { StateFilter } from '../../session-service/state-filter';
import { testProviders } from '../../testing/databases';
import { uniqueName } from '../../testing/factories';
import { useTestDatabase } from '../../testing/use-test-database';
import { sessionFilter } from './lists';

const providers = await testProviders();

const COMBINED: StateFilter[] = [
  { key: 'profile.age', op: '>', value: 70 },
  { key: 'topic', op: '=', value: 'login' },
];

describe.each(providers)('a combined state filter on %s', (provider) => {
  const database = useTestDatabase(provider);

  async function seed(appName: string): Promise<void> {
    const sessions = [
      { id: 'old-login', topic: 'login', age: 80 },
      { id: 'young-login', topic: 'login', age: 30 },
      { id: 'old-refund', topic: 'refund', age: 90 },
      { id: 'old-login-2', topic: 'login', age: 71 },
    ];
    for (const { id, topic, age } of sessions) {
      await database.service.createSession({ appName, userId: 'u', sessionId: id, state: { topic, profile: { name: id, age } } });
    }
  }

  it('finds the sessions both filters hold for', async () => {
    const appName = uniqueName('filters');
    await seed(appName);
    const page = await database.service.searchSessions({ appName, filters: COMBINED });
    expect(page.items.map((item) => item.id).sort()).toEqual(['old-login', 'old-login-2']);
    expect(page.total).toBe(2);
    const negated = await database.service.searchSessions({ appName, filters: [{ key: 'topic', op: '!=', value: 'login' }, COMBINED[0]!] });
    expect(negated.items.map((item) => item.id)).toEqual(['old-refund']);
  });

  it.runIf(provider === 'sqlite')('reaches the exact value through the value index and probes the nested path per session', async () => {
    const { where } = sessionFilter({ dialect: 'sqlite', searchCountLimit: 10_000 } as never, { appName: 'a', filters: COMBINED });
    const plan = await database.db.client.$queryRaw<{ detail: string }[]>(
      sql`EXPLAIN QUERY PLAN SELECT COUNT(*) FROM sessions s WHERE ${where}`,
    );
    const steps = plan.map((row) => row.detail);
    expect(steps).toContainEqual(expect.stringContaining('session_state_key_value_prefix_idx'));
    // The nested filter: one primary-key probe per candidate session, not a list built from every 'profile' row.
    expect(steps).not.toContainEqual(expect.stringContaining('USING INDEX session_state_key_idx (key=?)'));
    expect(steps).toContainEqual(expect.stringContaining('(session_pk=? AND key=?)'));
  });
});
