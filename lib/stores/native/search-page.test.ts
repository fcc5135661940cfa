// A filtered search's page and its bounded count come from one walk over the
// matches: at 100,000 sessions each state filter tests every state row of its
// key (or probes one per session), and running that once for the page and
// again for the count doubled the time of every search. A statement count, not
// a timing (the bench times it: `npm run bench -- --search`).
import { describe, expect, it } from 'vitest';
import { countingClient } from '../../testing/counting-client';
import { testProviders } from '../../testing/databases';
import { uniqueName } from '../../testing/factories';
import { useTestDatabase } from '../../testing/use-test-database';
import { createNativeSessionStore } from './store';

const providers = await testProviders();

describe.each(providers)('a filtered session search on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('reads its page and its count in one statement, beside the titles and labels', async () => {
    const appName = uniqueName('search-page');
    for (let i = 0; i < 6; i++) {
      await database.service.createSession({
        appName,
        userId: `u${i % 2}`,
        sessionId: `s${i}`,
        state: { topic: i % 2 ? 'login' : 'refund' },
      });
    }
    const counted = countingClient(database.db.client);
    const store = createNativeSessionStore(counted.client, provider, { searchCountLimit: 2 });

    counted.reset();
    const page = await store.searchSessions({ appName, filters: [{ key: 'topic', op: 'contains', value: 'LOG' }], limit: 1 });
    expect(page.items.map((item) => item.id)).toEqual(['s5']);
    expect(page).toMatchObject({ total: 2, totalIsLowerBound: true });
    // The page and its count, then the titles and labels of the page's sessions.
    expect(counted.statements()).toBe(2);

    const exact = await store.searchSessions({ appName, filters: [{ key: 'topic', op: '=', value: 'login' }], offset: 1, limit: 5 });
    expect(exact.items.map((item) => item.id)).toEqual(['s3', 's1']);
    expect(exact).toMatchObject({ total: 3, totalIsLowerBound: false });

    counted.reset();
    const past = await store.searchSessions({ appName, filters: [{ key: 'topic', op: '=', value: 'login' }], offset: 4, limit: 5 });
    expect(past).toEqual({ items: [], total: 3, totalIsLowerBound: false });
    // Past the last match no row carries the count: it is read on its own.
    expect(counted.statements()).toBe(2);
  });
});
