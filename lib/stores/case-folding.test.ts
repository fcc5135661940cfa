// Case-insensitive tests beyond ASCII: SQLite's own lower() folds ASCII
// letters only, so 'ÉCLAIR' did not contain 'éclair' there. State filters
// (native store and ADK stores) and the ADK header search fold as
// JavaScript does, on SQLite and PostgreSQL alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdkFixture, type FixtureStore } from '../testing/adk-fixtures/stores';
import { useTestDatabase } from '../testing/use-test-database';
import type { SessionStore } from '../session-service/store';

async function containsIds(store: SessionStore, appName: string, key: string, value: string): Promise<string[]> {
  const page = await store.searchSessions({ appName, filters: [{ key, op: 'contains', value }] });
  return page.items.map((session) => session.id).sort();
}

describe.each(['sqlite', 'postgresql'] as const)('contains folds case beyond ASCII on the native store on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('finds ÉCLAIR for éclair and éclair for ÉCLAIR, in every tier and in nested values', async () => {
    const store = database.service;
    const appName = 'folding-app';
    await store.createSession({
      appName,
      userId: 'u1',
      sessionId: 'upper',
      state: { dessert: 'ÉCLAIR au chocolat', order: { city: 'ŁÓDŹ' } },
    });
    await store.createSession({ appName, userId: 'u2', sessionId: 'lower', state: { dessert: 'un éclair' } });
    await store.createSession({ appName, userId: 'u3', sessionId: 'other', state: { dessert: 'Eclair, no accent' } });
    await store.editState({ appName, scope: 'user', userId: 'u1', changes: { name: 'ÅSA ÖBERG' }, actor: 't', reason: 't' });

    expect(await containsIds(store, appName, 'dessert', 'éclair')).toEqual(['lower', 'upper']);
    expect(await containsIds(store, appName, 'dessert', 'ÉCLAIR')).toEqual(['lower', 'upper']);
    expect(await containsIds(store, appName, 'order.city', 'łódź')).toEqual(['upper']);
    expect(await containsIds(store, appName, 'user:name', 'åsa ö')).toEqual(['upper']);
    // ASCII needles keep the fast built-in and still match a value with letters beyond ASCII.
    expect(await containsIds(store, appName, 'dessert', 'CLAIR')).toEqual(['lower', 'other', 'upper']);
  });
});

describe('contains folds case beyond ASCII on an adk-js store on SQLite', () => {
  let fixture: FixtureStore | undefined;
  beforeAll(async () => {
    fixture = await openAdkFixture({ family: 'adk-js' });
    await fixture.store.createSession({
      appName: 'folding-app',
      userId: 'u1',
      sessionId: 'upper',
      state: { dessert: 'ÉCLAIR au chocolat' },
    });
    await fixture.store.createSession({ appName: 'folding-app', userId: 'u2', sessionId: 'plain', state: { dessert: 'tart' } });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('filters and finds ÉCLAIR for éclair', async () => {
    const store = fixture!.store;
    expect(await containsIds(store, 'folding-app', 'dessert', 'éclair')).toEqual(['upper']);
    const found = await store.find({ text: 'éclair au', appName: 'folding-app' });
    expect(found.hits).toMatchObject([{ kind: 'session', sessionId: 'upper' }]);
  });
});
