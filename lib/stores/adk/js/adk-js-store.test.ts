// The adk-js family on databases adk-js's own DatabaseSessionService wrote,
// on SQLite and PostgreSQL: Statehouse reads them as adk-js does, writes
// what adk-js writes (adk-js reads it back), and browsing changes nothing.
import { createEvent, createEventActions } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, testProviders, type ScratchDatabase } from '../../../testing/databases';
import { openAdkStore, type AdkSessionStore } from '..';
import { sqliteFilePath } from '../../../db/url';
import { adkJsService, dumpAgentDatabase, writeAdkJsFixture, type AdkJsFixture } from '../../../testing/adk-fixtures';

const providers = await testProviders();
const where = (url: string) => (url.startsWith('file:') ? { sqlitePath: sqliteFilePath(url) } : { postgresUrl: url });
const alice = { appName: 'shop', userId: 'alice', sessionId: 'alice-1' };

describe.each(providers)('adk-js store on %s', (provider) => {
  let database: ScratchDatabase;
  let fixture: AdkJsFixture;
  let store: AdkSessionStore;

  beforeAll(async () => {
    database = await createScratchDatabase(provider, 'adkjs');
    fixture = await writeAdkJsFixture(database.url);
    store = await openAdkStore(database.url);
  });
  afterAll(async () => {
    await store?.close();
    await database?.remove();
  });

  it('is detected as adk-js schema 1 and opens writable', () => {
    expect(store.info).toMatchObject({ family: 'adk-js-db', version: '1' });
    expect(store.info.readOnlyReason).toBeUndefined();
  });

  it('reads apps, users, sessions and the three tiers', async () => {
    expect((await store.listApps()).map((app) => [app.appName, app.sessionCount, app.userCount])).toEqual([
      ['desk', 1, 1],
      ['shop', 2, 2],
    ]);
    const page = await store.searchSessions({ appName: 'shop', order: 'oldest' });
    expect(page.items.map((s) => [s.id, s.eventCount])).toEqual([
      ['alice-1', 5],
      ['bob-1', 1],
    ]);
    // sessions.update_time is the last event's timestamp (ms), as appendEvent sets it.
    expect(page.items[0]?.lastUpdateTime).toBe((fixture.aliceTimes.at(-1) ?? 0) / 1000);
    const tiers = await store.getSessionTiers(alice);
    const values = (entries: { key: string; value: unknown }[] | undefined) =>
      Object.fromEntries((entries ?? []).map((e) => [e.key, e.value]));
    expect(values(tiers?.app)).toEqual({ theme: 'light' });
    expect(values(tiers?.user)).toEqual({ name: 'Alice B.', likes: ['tea'] });
    expect(values(tiers?.session)).toEqual({ cart: ['tea', 'cups'], last_reply: 'Added tea.' });
    const session = await store.getSession(alice);
    expect(session?.state).toEqual({
      cart: ['tea', 'cups'],
      last_reply: 'Added tea.',
      'app:theme': 'light',
      'user:name': 'Alice B.',
      'user:likes': ['tea'],
    });
  });

  it('shows events in camelCase with float-second timestamps, and per-key deltas with old values', async () => {
    const events = await store.listEvents(alice);
    expect(events.total).toBe(5);
    expect(events.items.map((item) => item.event.timestamp)).toEqual(fixture.aliceTimes.map((ms) => ms / 1000));
    const call = events.items[1]?.event;
    expect(call?.content?.parts?.[0]?.functionCall).toEqual({ id: 'call-1', name: 'add_to_cart', args: { item: 'tea' } });
    expect(events.items[2]?.event.actions.stateDelta).toEqual({ cart: ['tea'], 'user:likes': ['tea'] });
    const changes = await store.listEventChanges(alice, [3, 5]);
    const cart = changes.filter((c) => c.key === 'cart').map((c) => [c.eventSeq, c.oldValue, c.newValue]);
    // The creation state is in no event: before the first event that sets a key, its value is unknown.
    expect(cart).toEqual([
      [3, undefined, ['tea']],
      [5, ['tea'], ['tea', 'cups']],
    ]);
    expect(changes.find((c) => c.scope === 'user' && c.key === 'name')).toMatchObject({
      oldValue: undefined,
      newValue: 'Alice B.',
      eventSeq: 5,
    });
  });

  it('travels in time by replaying the deltas', async () => {
    const asOf = await store.getStateAsOf(alice, 3);
    const session = Object.fromEntries((asOf?.session ?? []).map((e) => [e.key, e.value]));
    expect(session).toEqual({ cart: ['tea'] });
    const later = await store.getStateAsOf(alice, 4);
    expect(Object.fromEntries((later?.app ?? []).map((e) => [e.key, e.value]))).toEqual({ theme: 'light' });
  });

  it('changes nothing in the database while browsing', async () => {
    const before = await dumpAgentDatabase(where(database.url));
    await store.listApps();
    await store.getAppSummary('shop');
    await store.listUsers('shop');
    await store.searchSessions({ appName: 'shop', stateKey: 'cart' });
    await store.searchSessions({ appName: 'shop', stateKey: 'user:name', stateValue: 'Bob' });
    await store.getSessionTiers(alice);
    await store.getSession(alice, { numRecentEvents: 2 });
    await store.listEvents(alice, { newestFirst: true });
    await store.getKeyHistory({ appName: 'shop', scope: 'session', userId: 'alice', sessionId: 'alice-1', key: 'cart' });
    await store.getUserHistory('shop', 'alice');
    await store.getStateAsOf(alice, 2);
    await store.listSessions({ appName: 'shop' });
    expect(await dumpAgentDatabase(where(database.url))).toEqual(before);
  });

  it('appends the adk-js way: adk-js reads the event and the state, and its older copy reloads instead of failing', async () => {
    const adk = await adkJsService(database.url);
    try {
      const older = await adk.getSession(alice);
      if (!older) throw new Error('adk-js does not see the session');
      const appended = await store.append(alice, {
        author: 'statehouse',
        invocationId: 'support-1',
        content: { role: 'user', parts: [{ text: 'from support' }] },
        actions: { stateDelta: { note: 'vip', 'user:tier': 'gold', 'app:banner': 'sale', 'temp:x': 1 } },
      });
      const fresh = await adk.getSession(alice);
      const last = fresh?.events.at(-1);
      expect(last?.id).toBe(appended.event.id);
      expect(last?.timestamp).toBe(Math.round(appended.event.timestamp * 1000));
      expect(last?.content?.parts?.[0]?.text).toBe('from support');
      expect(last?.actions.stateDelta).toEqual({ note: 'vip', 'user:tier': 'gold', 'app:banner': 'sale' });
      expect(fresh?.state).toMatchObject({ note: 'vip', 'user:tier': 'gold', 'app:banner': 'sale', cart: ['tea', 'cups'] });
      expect(fresh?.lastUpdateTime).toBe(Math.round(appended.event.timestamp * 1000));

      // adk-js has no stale-session error: appendEvent sees storage's update_time
      // past the copy's lastUpdateTime, reloads state and events into the copy, then appends.
      expect(older.events.some((e) => e.id === appended.event.id)).toBe(false);
      const reply = createEvent({
        author: 'shopkeeper',
        invocationId: 'inv-3',
        timestamp: Date.now() + 5,
        actions: createEventActions({ stateDelta: { last_reply: 'Noted.' } }),
      });
      await expect(adk.appendEvent({ session: older, event: reply })).resolves.toBeDefined();
      expect(older.events.some((e) => e.id === appended.event.id)).toBe(true);
      expect(older.state).toMatchObject({ note: 'vip', last_reply: 'Noted.', 'user:tier': 'gold' });
      const events = await store.listEvents(alice, { newestFirst: true, limit: 2 });
      expect(events.items.map((item) => item.event.id)).toEqual([reply.id, appended.event.id]);
    } finally {
      await adk.close();
    }
  });

  it('keeps the case of keys that are data, both ways', async () => {
    const adk = await adkJsService(database.url);
    try {
      const bob = await adk.getSession({ appName: 'shop', userId: 'bob', sessionId: 'bob-1' });
      if (!bob) throw new Error('adk-js does not see bob-1');
      await adk.appendEvent({
        session: bob,
        event: createEvent({
          author: 'agent',
          invocationId: 'case',
          timestamp: Date.now(),
          content: { role: 'model', parts: [{ functionCall: { name: 'lookUp', args: { maxPrice: 3, city_name: 'Oslo' } } }] },
          actions: createEventActions({ stateDelta: { camelKey: 1, snake_key: 2 } }),
        }),
      });
      const bobRef = { appName: 'shop', userId: 'bob', sessionId: 'bob-1' };
      const seen = (await store.listEvents(bobRef, { newestFirst: true, limit: 1 })).items[0]?.event;
      expect(seen?.actions.stateDelta).toEqual({ camelKey: 1, snake_key: 2 });
      expect(seen?.content?.parts?.[0]?.functionCall?.args).toEqual({ maxPrice: 3, city_name: 'Oslo' });

      const written = await store.append(bobRef, {
        author: 'support',
        content: { role: 'user', parts: [{ functionResponse: { name: 'lookUp', response: { hotelName: 'X', room_no: 4 } } }] },
        actions: { stateDelta: { otherKey: true } },
      });
      const back = (await adk.getSession(bobRef))?.events.find((e) => e.id === written.event.id);
      expect(back?.actions.stateDelta).toEqual({ otherKey: true });
      expect(back?.content?.parts?.[0]?.functionResponse?.response).toEqual({ hotelName: 'X', room_no: 4 });
    } finally {
      await adk.close();
    }
  });

  it('edits app and user state as adk-js stores it', async () => {
    await store.editState({ appName: 'shop', scope: 'app', changes: { theme: 'dark', banner: undefined }, actor: 'ops', reason: 'test' });
    await store.editState({ appName: 'shop', userId: 'bob', scope: 'user', changes: { vip: true }, actor: 'ops', reason: 'test' });
    const adk = await adkJsService(database.url);
    try {
      const bob = await adk.getSession({ appName: 'shop', userId: 'bob', sessionId: 'bob-1' });
      expect(bob?.state).toMatchObject({ 'app:theme': 'dark', 'user:name': 'Bob', 'user:vip': true });
      expect(Object.keys(bob?.state ?? {}).filter((key) => key.startsWith('app:'))).toEqual(['app:theme']);
    } finally {
      await adk.close();
    }
  });

  it('creates a session adk-js can continue', async () => {
    const created = await store.createSession({
      appName: 'desk',
      userId: 'dave',
      sessionId: 'desk-2',
      state: { topic: 'billing', 'user:plan': 'pro' },
    });
    expect(created.state).toEqual({ topic: 'billing', 'user:plan': 'pro' });
    const adk = await adkJsService(database.url);
    try {
      const session = await adk.getSession({ appName: 'desk', userId: 'dave', sessionId: 'desk-2' });
      expect(session?.state).toEqual({ topic: 'billing', 'user:plan': 'pro' });
      await adk.appendEvent({
        session: session!,
        event: createEvent({ author: 'user', invocationId: 'i', content: { role: 'user', parts: [{ text: 'hi' }] } }),
      });
      expect((await store.listEvents({ appName: 'desk', userId: 'dave', sessionId: 'desk-2' })).total).toBe(1);
    } finally {
      await adk.close();
    }
  });
});
