// The Events tab at 1,000,000 events: the text index gave its 50 docs in
// 10 ms, then reading those events back took 700-1,500 ms on SQLite, as an OR
// of (user, session, seq) triples made SQLite read every session of the app
// and every event of each. Each found event is now read by its keys. A plan
// shape check, not a timing (the bench times it: `npm run bench -- --search`).
import { sqltag as sql } from '@prisma/client/runtime/client';
import { describe, expect, it } from 'vitest';
import { testProviders } from '../../testing/databases';
import { uniqueName } from '../../testing/factories';
import { useTestDatabase } from '../../testing/use-test-database';
import { eventRowsSql } from './event-search';

const providers = await testProviders();

describe.each(providers)('the app-wide event search on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('finds the events holding the text, newest first, each with its author and place', async () => {
    const appName = uniqueName('events');
    for (const [userId, sessionId] of [
      ['u1', 'a'],
      ['u2', 'b'],
    ] as const) {
      await database.service.createSession({ appName, userId, sessionId });
      for (const text of ['hello there', `refund for order ${sessionId}-7`, 'bye']) {
        await database.service.append({ appName, userId, sessionId }, { author: 'agent', content: { role: 'model', parts: [{ text }] } });
      }
    }
    const result = await database.service.searchEvents?.({ appName, text: 'REFUND for', limit: 10 });
    expect(result && 'hits' in result ? result.hits.map((hit) => [hit.userId, hit.sessionId, hit.seq, hit.author]) : result).toEqual([
      ['u2', 'b', 2, 'agent'],
      ['u1', 'a', 2, 'agent'],
    ]);
  });

  it.runIf(provider === 'sqlite')('reads each found event through its session key and (session, seq), not the app’s events', async () => {
    // A page of the Events tab: 50 events.
    const docs = Array.from({ length: 50 }, (_, i) => ({ user_id: `u${i % 7}`, session_id: `s${i}`, key: String(i % 9) }));
    const plan = await database.db.client.$queryRaw<{ detail: string }[]>(sql`EXPLAIN QUERY PLAN ${eventRowsSql('sqlite', 'app', docs)}`);
    const steps = plan.map((row) => row.detail);
    expect(steps).toContainEqual(expect.stringMatching(/SEARCH s USING .*\(app_name=\? AND user_id=\? AND id=\?\)/));
    expect(steps).toContainEqual(expect.stringMatching(/SEARCH e USING .*\(session_pk=\? AND seq=\?\)/));
  });
});
