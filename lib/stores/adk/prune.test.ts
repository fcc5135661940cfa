// Retention on stores ADK writes (issue 26: "pruning answers 405 on ADK
// stores"): whole sessions deleted as the ADK deletes them, a dry run equal
// to the result, and event deletion refused up front, in the dry run too.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pruneIdleCommand, pruneSessionCommand } from '../../commands/session-ops';
import { createTestDatabase, testProviders, type TestDatabase } from '../../testing/databases';
import { APP, dumpAgentDatabase, fixtureLabel, pythonGetSession, T0, type AdkFixtureKind } from '../../testing/adk-fixtures';
import { openAdkFixture, type FixtureStore } from '../../testing/adk-fixtures/stores';
import type { AdkSessionStore } from '.';
import { StoreSessionLog } from './session-log';

const providers = await testProviders();
const kinds: AdkFixtureKind[] = [
  { family: 'py-sqlite' },
  { family: 'py-db', dialect: 'sqlite', clock: 'utc' },
  { family: 'adk-rust', dialect: 'sqlite' },
];
if (providers.includes('postgresql')) kinds.push({ family: 'adk-js', dialect: 'postgresql' });

let own: TestDatabase;
beforeAll(async () => {
  own = await createTestDatabase('sqlite');
});
afterAll(async () => {
  await own?.drop();
});

const trip = { appName: APP, userId: 'alice', sessionId: 'trip-paris' };

describe.each(kinds.map((kind) => [fixtureLabel(kind), kind] as const))('prune on %s', (_label, kind) => {
  let fixture: FixtureStore<AdkSessionStore> | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });
  const open = async () => {
    fixture = await openAdkFixture(kind, { id: crypto.randomUUID(), sessionLog: new StoreSessionLog(own.db.client, own.db.provider) });
    return fixture;
  };

  it('deletes a session as the ADK does; the dry run says exactly what the deletion then does', async () => {
    const { store, location } = await open();
    const before = await dumpAgentDatabase(location);
    const dry = await pruneSessionCommand(store, 'ops', { ...trip, target: 'session' });
    expect(dry).toEqual({ ok: true, data: { sessions: 1, events: 3 } });
    expect(await dumpAgentDatabase(location)).toEqual(before);
    const done = await pruneSessionCommand(store, 'ops', { ...trip, target: 'session', dryRun: false, reason: 'asked' });
    expect(done).toEqual(dry);
    expect(await store.getSessionSummary(trip)).toBeNull();
    if (kind.family === 'py-sqlite' || kind.family === 'py-db') {
      expect(await pythonGetSession(location, kind.family === 'py-sqlite' ? 'sqlite' : 'database', trip)).toBeNull();
    }
    const history = await store.listOperations?.({ appName: APP, userId: 'alice', sessionId: 'trip-paris' });
    expect(history?.items.map((op) => [op.kind, op.reason, op.detail])).toEqual([
      ['prune', 'asked', { target: 'session', sessions: 1, events: 3 }],
    ]);
  });

  it('deletes idle sessions of a user by their update time; dry run equals result', async () => {
    const { store } = await open();
    const input = { appName: APP, userId: 'carol', idleDays: 30, now: T0 + 40 * 86_400 };
    const dry = await pruneIdleCommand(store, 'ops', input);
    expect(dry).toEqual({ ok: true, data: { sessions: 30, events: 0 } });
    expect(await pruneIdleCommand(store, 'ops', { ...input, dryRun: false, reason: 'retention' })).toEqual(dry);
    expect((await store.searchSessions({ appName: APP, userId: 'carol' })).total).toBe(0);
    expect((await store.searchSessions({ appName: APP, userId: 'alice' })).total).toBe(2);
  });

  it('refuses to delete some of a session’s events, in the dry run as in the write, saying why', async () => {
    const { store, location } = await open();
    const before = await dumpAgentDatabase(location);
    for (const dryRun of [true, false]) {
      const refused = await pruneSessionCommand(store, 'ops', {
        ...trip,
        target: 'invocation',
        invocationId: 'inv-e2',
        dryRun,
        reason: 'x',
      });
      expect(refused).toMatchObject({ ok: false, code: 'UNSUPPORTED', message: expect.stringContaining('Delete the whole session') });
    }
    expect(await dumpAgentDatabase(location)).toEqual(before);
  });
});
