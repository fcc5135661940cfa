// Import on stores ADK writes (issue 26: "fork, import ... answer 405 on ADK
// stores; the import dry run says 'create' and then the import answers 405;
// imported app:/user: changes show in the timeline but were never applied").
// The events' shared changes are applied or refused up front, on every store;
// what the agent then loads is read by ADK's own rules.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importCommand } from '../../commands/session-ops';
import { createTestDatabase, testProviders, type TestDatabase } from '../../testing/databases';
import {
  adkJsService,
  APP,
  dumpAgentDatabase,
  fixtureLabel,
  pythonGetSession,
  targetUrl,
  type AdkFixtureKind,
} from '../../testing/adk-fixtures';
import { openAdkFixture, openNativeFixture, writeAdkFixture, type FixtureStore } from '../../testing/adk-fixtures/stores';
import type { SessionStore } from '../../session-service/store';
import { openAdkStore } from '.';
import { StoreSessionLog } from './session-log';

const providers = await testProviders();
const T = 1_767_300_000;

/** An ADK session file (what `adk run --save_session` writes, camelCase) whose events change every tier. */
const sessionFile = (id: string) =>
  JSON.stringify({
    id,
    appName: 'elsewhere',
    userId: 'alice',
    state: { step: 2, 'app:promo': 'spring', 'user:tier': 'gold' },
    events: [
      { id: `${id}-1`, author: 'user', invocationId: 'i1', timestamp: T + 1, content: { role: 'user', parts: [{ text: 'hi' }] } },
      { id: `${id}-2`, author: 'agent', invocationId: 'i1', timestamp: T + 2, actions: { stateDelta: { step: 1, 'user:tier': 'gold' } } },
      { id: `${id}-3`, author: 'agent', invocationId: 'i2', timestamp: T + 3, actions: { stateDelta: { step: 2, 'app:promo': 'spring' } } },
    ],
    lastUpdateTime: T + 3,
  });

let own: TestDatabase;
beforeAll(async () => {
  own = await createTestDatabase('sqlite');
});
afterAll(async () => {
  await own?.drop();
});

const target = { appName: APP, userId: 'alice' };

async function importsApplyOrRefuse(store: SessionStore) {
  // Without applying them: refused in the dry run already, with the keys named; the write refuses too.
  const dry = await importCommand(store, 'ops', { ...target, text: sessionFile('copy-1'), dryRun: true });
  expect(dry).toMatchObject({ ok: true, data: { counts: { create: 0, invalid: 1 } } });
  const item = dry.ok ? dry.data.items[0] : undefined;
  expect(item?.sharedChanges).toEqual(['app:promo', 'user:tier']);
  expect(item?.problem).toContain('app:promo');
  expect(await importCommand(store, 'ops', { ...target, text: sessionFile('copy-1'), dryRun: false })).toMatchObject({
    ok: false,
    code: 'INVALID_INPUT',
  });
  expect(await store.getSessionSummary({ ...target, sessionId: 'copy-1' })).toBeNull();

  // Applying them: the dry run says so, and the write does it.
  const planned = await importCommand(store, 'ops', { ...target, text: sessionFile('copy-1'), dryRun: true, applySharedState: true });
  expect(planned).toMatchObject({
    ok: true,
    data: { counts: { create: 1 }, items: [{ status: 'create', sharedChanges: ['app:promo', 'user:tier'] }] },
  });
  const written = await importCommand(store, 'ops', { ...target, text: sessionFile('copy-1'), dryRun: false, applySharedState: true });
  expect(written).toMatchObject({ ok: true, data: { written: true } });
  const state = Object.fromEntries(Object.entries((await store.getSession({ ...target, sessionId: 'copy-1' }))?.state ?? {}));
  expect(state).toMatchObject({ step: 2, 'app:promo': 'spring', 'user:tier': 'gold' });
}

describe.each(providers)('import on Statehouse’s own store (%s)', (provider) => {
  let fixture: FixtureStore | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });
  it('applies the events’ app and user changes, or refuses the session up front', async () => {
    fixture = await openNativeFixture(provider);
    await importsApplyOrRefuse(fixture.store);
    const tiers = await fixture.store.getSessionTiers({ ...target, sessionId: 'copy-1' });
    const user = tiers?.user.find((entry) => entry.key === 'tier');
    // The change's cause is the imported event, as its timeline shows it.
    expect(user?.lastChange).toMatchObject({ eventId: 'copy-1-2', sourceSessionId: 'copy-1' });
  });
});

const pythonKinds: AdkFixtureKind[] = [{ family: 'py-sqlite' }, { family: 'py-db', dialect: 'sqlite', clock: 'utc' }];
if (providers.includes('postgresql')) pythonKinds.push({ family: 'py-db', dialect: 'postgresql', clock: 'timestamptz' });

describe.each(pythonKinds.map((kind) => [fixtureLabel(kind), kind] as const))('import on %s', (_label, kind) => {
  let fixture: FixtureStore | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it('writes the session as adk-python does; get_session loads its events and the state they leave', async () => {
    fixture = await openAdkFixture(kind, { id: crypto.randomUUID(), sessionLog: new StoreSessionLog(own.db.client, own.db.provider) });
    await importsApplyOrRefuse(fixture.store);
    const service = kind.family === 'py-sqlite' ? 'sqlite' : 'database';
    const loaded = await pythonGetSession(fixture.location, service, { ...target, sessionId: 'copy-1' });
    expect(loaded?.events.map((event) => [event.id, event.invocation_id])).toEqual([
      ['copy-1-1', 'i1'],
      ['copy-1-2', 'i1'],
      ['copy-1-3', 'i2'],
    ]);
    // The session tier the events leave; the shared tiers the scenario had, plus the applied changes.
    expect(loaded?.state).toEqual({ step: 2, 'app:bookings': 3, 'app:promo': 'spring', 'user:home_city': 'Munich', 'user:tier': 'gold' });
    const history = await fixture.store.listOperations?.({ appName: APP, sessionId: 'copy-1' });
    expect(history?.items.map((op) => [op.kind, op.detail])).toEqual([['import', { events: 3, appliedSharedState: true }]]);
  });

  it('refuses in the dry run what the store would refuse to write (never "create", then 405)', async () => {
    const written = await writeAdkFixture(kind);
    const store = await openAdkStore(written.locator, { readOnly: true });
    try {
      const before = await dumpAgentDatabase(written.location);
      const dry = await importCommand(store, 'ops', { ...target, text: sessionFile('copy-2'), dryRun: true, applySharedState: true });
      expect(dry).toMatchObject({ ok: false, code: 'READ_ONLY' });
      expect(await dumpAgentDatabase(written.location)).toEqual(before);
    } finally {
      await store.close();
      await written.remove();
    }
  });
});

describe.each(providers)('import on adk-js (%s), read back by @google/adk', (provider) => {
  it('creates sessions adk-js loads, with the applied app and user state', async () => {
    const fixture = await openAdkFixture(
      { family: 'adk-js', dialect: provider },
      { id: crypto.randomUUID(), sessionLog: new StoreSessionLog(own.db.client, own.db.provider) },
    );
    try {
      await importsApplyOrRefuse(fixture.store);
      const adk = await adkJsService(targetUrl(fixture.location));
      try {
        const session = await adk.getSession({ ...target, sessionId: 'copy-1' });
        expect(session?.events.map((event) => event.id)).toEqual(['copy-1-1', 'copy-1-2', 'copy-1-3']);
        expect(session?.events[1]?.actions.stateDelta).toEqual({ step: 1, 'user:tier': 'gold' });
        expect(session?.state).toMatchObject({ step: 2, 'app:promo': 'spring', 'user:tier': 'gold', 'app:bookings': 3 });
      } finally {
        await adk.close();
      }
    } finally {
      await fixture.close();
    }
  });
});
