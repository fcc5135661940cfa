// Fork at #N on stores ADK writes (issue 26: "fork answers 405 on ADK
// stores"): the new session is written as that ADK writes a session, and
// the agent reads it back by its own rules: adk-js through its real
// DatabaseSessionService, adk-python by its get_session reproduced from source.
import { createEvent } from '@google/adk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { forkCommand } from '../../commands/session-ops';
import { sqliteFilePath } from '../../db/url';
import { createScratchDatabase, createTestDatabase, testProviders, type ScratchDatabase, type TestDatabase } from '../../testing/databases';
import {
  adkJsService,
  APP,
  dumpAgentDatabase,
  fixtureLabel,
  pythonGetSession,
  writeAdkJsFixture,
  type AdkFixtureKind,
} from '../../testing/adk-fixtures';
import { openAdkFixture, type FixtureStore } from '../../testing/adk-fixtures/stores';
import { openAdkStore, type AdkSessionStore } from '.';
import { StoreSessionLog } from './session-log';

const providers = await testProviders();
const pythonKinds: AdkFixtureKind[] = [{ family: 'py-sqlite' }, { family: 'py-db', dialect: 'sqlite', clock: 'utc' }];
if (providers.includes('postgresql')) pythonKinds.push({ family: 'py-db', dialect: 'postgresql', clock: 'timestamptz' });

let own: TestDatabase;
beforeAll(async () => {
  own = await createTestDatabase('sqlite');
});
afterAll(async () => {
  await own?.drop();
});

const source = { appName: APP, userId: 'alice', sessionId: 'trip-paris' };
const tiersOnly = (dump: Record<string, unknown>) => ({ app_states: dump.app_states, user_states: dump.user_states });

describe.each(pythonKinds.map((kind) => [fixtureLabel(kind), kind] as const))('fork on %s', (_label, kind) => {
  let fixture: FixtureStore<AdkSessionStore> | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it('writes session row and events as adk-python does; get_session reads the state as of #N and the first N events', async () => {
    fixture = await openAdkFixture(kind, { id: crypto.randomUUID(), sessionLog: new StoreSessionLog(own.db.client, own.db.provider) });
    const { store, location } = fixture;
    const before = await dumpAgentDatabase(location);
    const original = await pythonGetSession(location, kind.family === 'py-sqlite' ? 'sqlite' : 'database', source);

    const forked = await forkCommand(store, 'ops@example.com', { ...source, atSeq: 2, forkId: 'trip-paris-2', reason: 'what if' });
    expect(forked).toMatchObject({ ok: true, data: { id: 'trip-paris-2', eventCount: 2 } });

    const service = kind.family === 'py-sqlite' ? 'sqlite' : 'database';
    const fork = await pythonGetSession(location, service, { ...source, sessionId: 'trip-paris-2' });
    // The session tier as it stood after e2, the shared tiers as they are now (shared with the source).
    expect(fork?.state).toEqual({ destination: 'Paris', 'app:bookings': 3, 'user:home_city': 'Munich' });
    expect(fork?.events.map((event) => event.id)).toEqual(['e1', 'e2']);
    expect(fork?.events).toEqual(original?.events.slice(0, 2));
    // Nothing else changed: not the source, not the shared tiers.
    const after = await dumpAgentDatabase(location);
    expect(tiersOnly(after)).toEqual(tiersOnly(before));
    expect(await pythonGetSession(location, service, source)).toEqual(original);

    const meta = await store.getSessionMeta?.({ ...source, sessionId: 'trip-paris-2' });
    expect(meta?.forkedFrom).toEqual({ sessionId: 'trip-paris', atSeq: 2 });
    expect((await store.getSessionMeta?.(source))?.forks).toEqual([{ sessionId: 'trip-paris-2', atSeq: 2 }]);
    // Titles and labels are kept in Statehouse's own database and shown in the session lists.
    await store.setSessionMeta?.(
      { ...source, sessionId: 'trip-paris-2' },
      { title: 'What if Paris', labels: ['what-if'] },
      { actor: 'ops' },
    );
    const listed = await store.searchSessions({ appName: APP, userId: 'alice' });
    expect(listed.items.find((item) => item.id === 'trip-paris-2')).toMatchObject({ title: 'What if Paris', labels: ['what-if'] });
    const history = await store.listOperations?.({ appName: APP, sessionId: 'trip-paris-2' });
    expect(history?.items.map((op) => [op.kind, op.actor, op.reason, op.detail])).toEqual([
      ['meta', 'ops', null, { title: 'What if Paris', labels: ['what-if'] }],
      ['fork', 'ops@example.com', 'what if', { fromSessionId: 'trip-paris', atSeq: 2 }],
    ]);
  });

  it('refuses a taken id, an event number past the end, and an absent source, writing nothing', async () => {
    fixture = await openAdkFixture(kind, { id: crypto.randomUUID(), sessionLog: new StoreSessionLog(own.db.client, own.db.provider) });
    const { store, location } = fixture;
    const before = await dumpAgentDatabase(location);
    expect(await forkCommand(store, 'ops', { ...source, atSeq: 2, forkId: 'trip-rome' })).toMatchObject({
      ok: false,
      code: 'ALREADY_EXISTS',
    });
    expect(await forkCommand(store, 'ops', { ...source, atSeq: 4 })).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(await forkCommand(store, 'ops', { ...source, sessionId: 'nope', atSeq: 1 })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await dumpAgentDatabase(location)).toEqual(before);
  });
});

describe.each(providers)('fork on adk-js (%s), read back by @google/adk', (provider) => {
  let database: ScratchDatabase;
  let store: AdkSessionStore;
  const alice = { appName: 'shop', userId: 'alice', sessionId: 'alice-1' };

  beforeAll(async () => {
    database = await createScratchDatabase(provider, 'adkjsfork');
    await writeAdkJsFixture(database.url);
    store = await openAdkStore(database.url, { id: 'js', sessionLog: new StoreSessionLog(own.db.client, own.db.provider) });
  });
  afterAll(async () => {
    await store?.close();
    await database?.remove();
  });

  it('creates a session adk-js loads with the first N events and the state as of #N, and continues', async () => {
    const where = database.url.startsWith('file:') ? { sqlitePath: sqliteFilePath(database.url) } : { postgresUrl: database.url };
    const before = await dumpAgentDatabase(where);
    const forked = await forkCommand(store, 'ops', { ...alice, atSeq: 3, forkId: 'alice-what-if' });
    expect(forked).toMatchObject({ ok: true, data: { id: 'alice-what-if', eventCount: 3 } });
    const adk = await adkJsService(database.url);
    try {
      const original = await adk.getSession(alice);
      const fork = await adk.getSession({ ...alice, sessionId: 'alice-what-if' });
      expect(fork?.events.map((event) => event.id)).toEqual(original?.events.slice(0, 3).map((event) => event.id));
      expect(fork?.events).toEqual(original?.events.slice(0, 3));
      expect(fork?.state).toEqual({ cart: ['tea'], 'app:theme': 'light', 'user:name': 'Alice B.', 'user:likes': ['tea'] });
      const after = await dumpAgentDatabase(where);
      expect(tiersOnly(after)).toEqual(tiersOnly(before));
      // The agent goes on from the fork as from any session it created.
      await adk.appendEvent({
        session: fork!,
        event: createEvent({ author: 'user', invocationId: 'what-if', content: { role: 'user', parts: [{ text: 'and cups?' }] } }),
      });
      expect((await store.listEvents({ ...alice, sessionId: 'alice-what-if' })).total).toBe(4);
      expect((await adk.getSession(alice))?.events).toHaveLength(original?.events.length ?? -1);
    } finally {
      await adk.close();
    }
  });
});
