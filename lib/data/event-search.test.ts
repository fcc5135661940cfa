// The app-wide event search: through the text index on Statehouse's own
// store (both databases), and by a bounded scan over an agent's ADK store,
// which says how many sessions it read when its budget ran out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP } from '../testing/adk-fixtures';
import { openAdkFixture, type FixtureStore } from '../testing/adk-fixtures/stores';
import { useTestDatabase } from '../testing/use-test-database';
import type { EventSearchRequest, EventSearchResult } from '../session-service/search';
import { scanEvents } from './event-search';

describe.each(['sqlite', 'postgresql'] as const)('event search on the native store on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('finds events of every session of the app by text, tool name or error, case-insensitively, newest first', async () => {
    const store = database.service;
    const a = { appName: 'events-app', userId: 'carol', sessionId: 'a' };
    const b = { appName: 'events-app', userId: 'dave', sessionId: 'b' };
    const elsewhere = { appName: 'other-app', userId: 'carol', sessionId: 'c' };
    for (const ref of [a, b, elsewhere]) await store.createSession(ref);
    await store.append(a, { author: 'user', timestamp: 100, content: { role: 'user', parts: [{ text: 'I want a REFUND for order 7' }] } });
    await store.append(a, {
      author: 'agent',
      timestamp: 101,
      content: { role: 'model', parts: [{ functionCall: { name: 'issue_refund', args: {} } }] },
    });
    await store.append(b, { author: 'agent', timestamp: 102, errorCode: 'REFUND_LIMIT', errorMessage: 'over the limit' });
    await store.append(b, {
      author: 'user',
      timestamp: 103,
      content: { role: 'user', parts: [{ text: 'Crème brûlée, s’il vous plaît' }] },
    });
    await store.append(elsewhere, { author: 'user', timestamp: 104, content: { role: 'user', parts: [{ text: 'refund me too' }] } });

    const searchEvents = async (request: EventSearchRequest): Promise<EventSearchResult> => {
      const result = await store.searchEvents!(request);
      if (!('hits' in result)) throw new Error('The native store’s event index is always whole.');
      return result;
    };
    const found = await searchEvents({ appName: 'events-app', text: 'refund' });
    expect(found.method).toBe('index');
    expect(found.hits.map((hit) => [hit.userId, hit.sessionId, hit.seq, hit.author])).toEqual([
      ['dave', 'b', 1, 'agent'],
      ['carol', 'a', 2, 'agent'],
      ['carol', 'a', 1, 'user'],
    ]);
    expect(found.hits[2]?.snippet).toContain('REFUND for order 7');
    expect((await searchEvents({ appName: 'events-app', text: 'CRÈME BRÛLÉE' })).hits.map((hit) => hit.sessionId)).toEqual(['b']);
    expect((await searchEvents({ appName: 'events-app', text: 'refund', limit: 1 })).hits).toHaveLength(1);
    expect((await searchEvents({ appName: 'events-app', text: 'no such words' })).hits).toEqual([]);
  });
});

describe('event search over an ADK store (a bounded scan)', () => {
  let fixture: FixtureStore | undefined;
  beforeAll(async () => {
    fixture = await openAdkFixture({ family: 'py-sqlite' });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('reads the app’s sessions for matching events, case-insensitively beyond ASCII', async () => {
    const store = fixture!.store;
    expect(store.searchEvents).toBeUndefined();
    const found = await scanEvents(store, { appName: APP, text: 'PRÈS DE LA' });
    expect(found).toMatchObject({ method: 'scan', hits: [{ userId: 'alice', sessionId: 'trip-paris', seq: 1, author: 'user' }] });
    expect(found.coverage).toBeUndefined();
  });

  it('says how many sessions it read when the budget runs out', async () => {
    const found = await scanEvents(fixture!.store, { appName: APP, text: 'paris' }, 0);
    expect(found.method).toBe('scan');
    expect(found.coverage).toMatchObject({ unit: 'sessions', searched: expect.any(Number), total: expect.any(Number) });
    expect(found.coverage!.searched).toBeLessThan(found.coverage!.total);
  });
});
