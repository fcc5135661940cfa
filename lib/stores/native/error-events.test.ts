// The lists' error column and filter, and the sort by event count, on
// Statehouse's own store: an event with errorCode or errorMessage counts; a
// text that only mentions them does not.
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../testing/use-test-database';

describe.each(['sqlite', 'postgresql'] as const)('error events on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('counts, filters and sorts', async () => {
    const store = database.service;
    const at = (sessionId: string, userId = 'carol') => ({ appName: 'errs', userId, sessionId });
    for (const ref of [at('clean'), at('failing'), at('mentions'), at('other-user', 'dave')]) await store.createSession(ref);
    await store.append(at('clean'), { author: 'agent', content: { role: 'model', parts: [{ text: 'fine' }] } });
    await store.append(at('failing'), { author: 'agent', errorCode: 'RATE_LIMIT', errorMessage: 'slow down' });
    await store.append(at('failing'), { author: 'agent', errorMessage: 'again' });
    await store.append(at('failing'), { author: 'user', content: { role: 'user', parts: [{ text: 'hello?' }] } });
    await store.append(at('mentions'), {
      author: 'user',
      content: { role: 'user', parts: [{ text: '"errorCode": 1' }] },
      customMetadata: { errorCode: 'x' },
    });
    await store.append(at('other-user', 'dave'), { author: 'agent', errorCode: 'E' });

    const counts = await store.errorEventCounts!('errs', [
      { userId: 'carol', sessionId: 'clean' },
      { userId: 'carol', sessionId: 'failing' },
      { userId: 'carol', sessionId: 'mentions' },
    ]);
    expect(Object.fromEntries(counts)).toEqual({ 'carol\u0000failing': 2 });

    const withErrors = await store.searchSessions({ appName: 'errs', withErrors: true });
    expect(withErrors.items.map((session) => session.id).sort()).toEqual(['failing', 'other-user']);
    expect(withErrors.total).toBe(2);
    expect((await store.searchSessions({ appName: 'errs', userId: 'carol', withErrors: true })).items.map((s) => s.id)).toEqual([
      'failing',
    ]);
    expect((await store.searchSessions({ appName: 'errs', order: 'events' })).items[0]!.id).toBe('failing');
  });
});
