// Case-insensitive tests beyond ASCII: SQLite's own lower() folds ASCII
// letters only, so 'ÉCLAIR' did not contain 'éclair' there. State filters
// (native store and ADK stores), the ADK header search, and the searches of
// ids, titles, labels, notes and a timeline's text fold as JavaScript does,
// on SQLite and PostgreSQL alike (agents' stores of every family on
// PostgreSQL too, whose lower() folds beyond ASCII in a UTF-8 locale).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLabel, type AdkFixtureKind } from '../testing/adk-fixtures';
import { openAdkFixture, type FixtureStore } from '../testing/adk-fixtures/stores';
import { testProviders } from '../testing/databases';
import { useTestDatabase } from '../testing/use-test-database';
import type { SessionStore } from '../session-service/store';
import { SqlNoteStore } from './notes/sql-notes';

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

  it('finds ids, titles, labels, notes and timeline text with ÉCLAIR for éclair', async () => {
    const store = database.service;
    const appName = 'folding-names';
    const byId = { appName, userId: 'ÉMILE', sessionId: 'ÉCLAIR-ORDER' };
    const byTitle = { appName, userId: 'u2', sessionId: 'titled' };
    const byLabel = { appName, userId: 'u3', sessionId: 'labelled' };
    for (const ref of [byId, byTitle, byLabel]) await store.createSession(ref);
    await store.setSessionMeta(byTitle, { title: 'Two ÉCLAIRS gone' }, { actor: 't' });
    await store.setSessionMeta(byLabel, { labels: ['ÉCLAIR-FAN'] }, { actor: 't' });
    await store.append(byTitle, { author: 'ÉCLAIR_BOT', content: { role: 'model', parts: [{ text: 'noted' }] } });
    await store.append(byTitle, { author: 'user', content: { role: 'user', parts: [{ text: 'One ÉCLAIR, please' }] } });

    const sessions = await store.searchSessions({ appName, idContains: 'éclair' });
    expect(sessions.items.map((session) => session.id).sort()).toEqual(['labelled', 'titled', 'ÉCLAIR-ORDER']);
    expect((await store.listUsers(appName, { idContains: 'émile' })).items.map((user) => user.userId)).toEqual(['ÉMILE']);
    expect((await store.listEvents(byTitle, { text: 'éclair' })).items.map((event) => event.seq)).toEqual([1, 2]);

    const notes = new SqlNoteStore(database.db.client, provider);
    await notes.add({ storeId: 'native', ...byTitle }, { author: 'ÅSA', text: 'Refunded the ÉCLAIR' }, 1);
    expect((await notes.search({ storeId: 'native', text: 'éclair' })).items.map((note) => note.text)).toEqual(['Refunded the ÉCLAIR']);
    expect((await notes.search({ storeId: 'native', text: 'åsa' })).total).toBe(1);
  });
});

const adkKinds: AdkFixtureKind[] = [{ family: 'adk-js' }];
if ((await testProviders()).includes('postgresql')) {
  adkKinds.push(
    { family: 'adk-js', dialect: 'postgresql' },
    { family: 'py-db', dialect: 'postgresql', clock: 'utc' },
    { family: 'adk-go', dialect: 'postgresql' },
    { family: 'adk-rust', dialect: 'postgresql' },
  );
}

describe.each(adkKinds.map((kind) => [fixtureLabel(kind), kind] as const))('contains folds case beyond ASCII on %s', (_label, kind) => {
  let fixture: FixtureStore | undefined;
  beforeAll(async () => {
    fixture = await openAdkFixture(kind);
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
    expect((await store.searchSessions({ appName: 'folding-app', idContains: 'UPP' })).items.map((session) => session.id)).toEqual([
      'upper',
    ]);
    const found = await store.find({ text: 'éclair au', appName: 'folding-app' });
    expect(found.hits).toMatchObject([{ kind: 'session', sessionId: 'upper' }]);
  });
});
