// The session page's reads of long values: previews cut by the database, so
// what crosses from the database into the process stays bounded whatever the
// session holds, while what the page shows is exactly the whole value cut.
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Provider } from '../db';
import type { SqlClient, SqlExecutor } from '../db/sql';
import { prefetchSessionPage } from '../queries/session-prefetch';
import { parseSessionUrl } from '../queries/session-url';
import { createNativeSessionStore } from '../stores/native/store';
import { useTestDatabase } from '../testing/use-test-database';
import { readTimeline, readTimelineEvent } from './session';
import { cutStateView, cutTimelineItem } from './session-cut';
import { sessionStateView } from './session-state';

const MiB = 1024 * 1024;

/** Characters of every string and number of every row the statements answered (what the driver handed over). */
function counting(client: SqlClient): { client: SqlClient; chars: () => number } {
  let chars = 0;
  const tally = (rows: unknown) => {
    if (Array.isArray(rows)) for (const row of rows) for (const value of Object.values(row as object)) chars += String(value).length;
    return rows;
  };
  const wrap = (executor: SqlExecutor): SqlExecutor => ({
    $queryRaw: async (query, ...values) => tally(await executor.$queryRaw(query, ...values)) as never,
    $executeRaw: (query, ...values) => executor.$executeRaw(query, ...values),
  });
  return {
    client: { ...wrap(client), $transaction: (fn, options) => client.$transaction((tx) => fn(wrap(tx)), options) },
    chars: () => chars,
  };
}

describe.each<Provider>(['sqlite', 'postgresql'])('the session page over long values on %s', (provider) => {
  const database = useTestDatabase(provider);
  const ref = { appName: 'long', userId: 'u', sessionId: 's' };
  const huge = (n: number) => `${n}:${'y'.repeat(MiB / 2)}`;

  it('reads a bounded amount from the database, and shows each value exactly as the whole value cut', async () => {
    await database.service.createSession({
      ...ref,
      state: { 'user:profile': huge(0), notes: Array.from({ length: 20_000 }, (_, i) => `n${i}`) },
    });
    for (let n = 1; n <= 10; n += 1) {
      await database.service.append(ref, {
        author: 'agent',
        timestamp: 1732581234.1234567 + n,
        content: { role: 'model', parts: [{ text: huge(n) }, { functionCall: { name: 'f', args: { n, blob: huge(n) } } }] },
        actions: { stateDelta: n % 4 === 0 ? { [`big${n}`]: huge(n), 'app:shared': { list: [huge(n), n] } } : { counter: n } },
      });
    }
    const probe = counting(database.db.client);
    const store = createNativeSessionStore(probe.client, provider);
    await prefetchSessionPage(
      new QueryClient(),
      store,
      ref,
      parseSessionUrl((name) => (name === 'event' ? '8' : null)),
    );
    // The session holds about 13 MB of text; the page shows 10 events, their changes and the state, each cut.
    expect(probe.chars()).toBeLessThan(MiB);

    const page = { limit: 50 };
    const cutPage = (items: Awaited<ReturnType<typeof readTimeline>>['items']) => items.map((item) => cutTimelineItem(ref, item));
    expect(cutPage((await readTimeline(store, ref, page, { preview: true })).items)).toEqual(
      cutPage((await readTimeline(store, ref, page)).items),
    );
    const one = async (preview: boolean) => cutTimelineItem(ref, (await readTimelineEvent(store, ref, 8, { preview }))!);
    expect(await one(true)).toEqual(await one(false));
    for (const asOf of [undefined, 4, 9]) {
      const view = async (preview: boolean) => cutStateView(ref, await sessionStateView(store, ref, asOf, { preview }), asOf);
      expect(await view(true)).toEqual(await view(false));
    }
    // Without preview, values come whole, the event's time to the last digit.
    const whole = await readTimelineEvent(store, ref, 8);
    expect(whole?.event.timestamp).toBe(1732581234.1234567 + 8);
    expect(whole?.event.content?.parts?.[0]?.text).toBe(huge(8));
  }, 180_000);
});
