// The read contract every store the console serves must keep: Statehouse's
// own and each ADK family's. One scenario (adk-fixtures/scenario.ts) is
// written into the store by the caller; these are the answers the console's
// pages and read API are built from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTimeline } from '../data/session';
import { renderState, sessionStateView } from '../data/session-state';
import type { StateFilter } from '../session-service/state-filter';
import type { EventQuery, SessionStore } from '../session-service/store';
import { renderTemplate } from '../session-service/template';
import type { StateEntry } from '../session-service/types';
import { APP, FILLERS, FINAL, SESSIONS, T0 } from './adk-fixtures/scenario';

export interface ContractSubject {
  store: SessionStore;
  /** Searches count at most this many matches past the offset (the store was opened with it). */
  searchCountLimit: number;
  /** Event fields the ADK's own event type has no place for (adk-rust: customMetadata), so its store cannot hold them. */
  eventFieldsNotStored?: string[];
  close(): Promise<void>;
}

const values = (entries: StateEntry[] | undefined) => Object.fromEntries((entries ?? []).map((entry) => [entry.key, entry.value]));
const paris = { appName: APP, userId: 'alice', sessionId: 'trip-paris' };

export function describeReadContract(name: string, open: () => Promise<ContractSubject>): void {
  describe(`read contract: ${name}`, () => {
    let subject: ContractSubject;
    let store: SessionStore;
    beforeAll(async () => {
      subject = await open();
      store = subject.store;
    });
    afterAll(async () => {
      await subject?.close();
    });

    it('lists the app with its session and user counts', async () => {
      const apps = await store.listApps();
      expect(apps.find((app) => app.appName === APP)).toMatchObject({ appName: APP, sessionCount: SESSIONS.length, userCount: 3 });
      expect(await store.getAppSummary(APP)).toMatchObject({ sessionCount: SESSIONS.length, userCount: 3 });
      expect(await store.getAppSummary('no-such-app')).toBeNull();
    });

    it('lists users with counts, searched and paged', async () => {
      const users = await store.listUsers(APP, { order: 'id' });
      expect(users.total).toBe(3);
      expect(users.items.map((user) => [user.userId, user.sessionCount])).toEqual([
        ['alice', 2],
        ['bob', 1],
        ['carol', FILLERS],
      ]);
      expect((await store.listUsers(APP, { order: 'sessions', limit: 1 })).items[0]?.userId).toBe('carol');
      expect((await store.listUsers(APP, { idContains: 'ALI' })).items.map((user) => user.userId)).toEqual(['alice']);
      expect((await store.listUsers(APP, { limit: 2, offset: 2, order: 'id' })).items.map((user) => user.userId)).toEqual(['carol']);
    });

    it('pages sessions without overlap and counts them exactly', async () => {
      const first = await store.searchSessions({ appName: APP, limit: 10 });
      const second = await store.searchSessions({ appName: APP, limit: 10, offset: 10 });
      expect(first.total).toBe(SESSIONS.length);
      expect(first.totalIsLowerBound).toBeFalsy();
      expect(first.items).toHaveLength(10);
      const ids = new Set([...first.items, ...second.items].map((item) => `${item.userId}/${item.id}`));
      expect(ids.size).toBe(20);
      const mine = await store.searchSessions({ appName: APP, userId: 'alice' });
      expect(mine.items.map((item) => item.id).sort()).toEqual(['trip-paris', 'trip-rome']);
      expect(mine.items.find((item) => item.id === 'trip-paris')?.eventCount).toBe(3);
      const recent = (await store.searchSessions({ appName: APP, userId: 'alice', order: 'recent' })).items.map((item) => item.id);
      const oldest = (await store.searchSessions({ appName: APP, userId: 'alice', order: 'oldest' })).items.map((item) => item.id);
      expect(recent).toEqual([...oldest].reverse());
    });

    it('searches by id, key and value, counting up to the limit', async () => {
      const byId = await store.searchSessions({ appName: APP, idContains: 'filler-1' });
      expect(byId.total).toBe(Math.min(10, subject.searchCountLimit));
      expect((await store.searchSessions({ appName: APP, stateKey: 'destination' })).items.map((item) => item.id).sort()).toEqual([
        'trip-paris',
        'trip-rome',
      ]);
      expect(
        (await store.searchSessions({ appName: APP, stateKey: 'destination', stateValue: 'Lyon' })).items.map((item) => item.id),
      ).toEqual(['trip-paris']);
      expect(
        (await store.searchSessions({ appName: APP, stateKey: 'user:home_city', stateValue: 'Munich' })).items
          .map((item) => item.id)
          .sort(),
      ).toEqual(['trip-paris', 'trip-rome']);
      expect(
        (await store.searchSessions({ appName: APP, stateValue: { amount: 500, currency: 'EUR' } })).items.map((item) => item.id),
      ).toEqual(['weekend']);
      const everyone = await store.searchSessions({ appName: APP, stateKey: 'app:bookings', limit: 5 });
      if (subject.searchCountLimit < SESSIONS.length) {
        expect(everyone.totalIsLowerBound).toBe(true);
        expect(everyone.total).toBe(subject.searchCountLimit);
      } else {
        expect(everyone.total).toBe(SESSIONS.length);
      }
    });

    it('searches sessions by title and label as by id, case-insensitively', async () => {
      const setMeta = store.setSessionMeta;
      if (!setMeta || store.refusalOf?.('meta')) return;
      await setMeta.call(store, paris, { title: 'Honeymoon in Lyon', labels: ['VIP-Guest'] }, { actor: 'contract' });
      const ids = async (idContains: string, userId?: string) =>
        (await store.searchSessions({ appName: APP, idContains, ...(userId === undefined ? {} : { userId }) })).items
          .map((item) => item.id)
          .sort();
      expect(await ids('HONEYMOON')).toEqual(['trip-paris']);
      expect(await ids('vip-g')).toEqual(['trip-paris']);
      expect(await ids('honeymoon', 'bob')).toEqual([]);
      expect(await ids('trip-')).toEqual(['trip-paris', 'trip-rome']);
      await setMeta.call(store, paris, { title: null, labels: [] }, { actor: 'contract' });
      expect(await ids('honeymoon')).toEqual([]);
    });

    it('finds users, sessions and apps by any id or state value, case-insensitively', async () => {
      const found = async (text: string) =>
        (await store.find({ text })).hits.map((hit) => [hit.kind, hit.userId ?? '', hit.sessionId ?? '', hit.matched]);
      expect(await found('muNICH')).toEqual([['user', 'alice', '', 'user:home_city']]);
      expect(await found('lyon')).toEqual([['session', 'alice', 'trip-paris', 'destination']]);
      expect(await found('eur')).toEqual([['session', 'bob', 'weekend', 'budget']]);
      expect(await found('weeken')).toEqual([['session', 'bob', 'weekend', 'id']]);
      expect(await found('ALIC')).toEqual([['user', 'alice', '', 'user id']]);
      expect(await found('no such text')).toEqual([]);
      const hit = (await store.find({ text: 'munich' })).hits[0];
      expect(hit?.snippet).toContain('Munich');
      expect(hit?.appName).toBe(APP);
      expect((await store.find({ text: 'filler', limit: 4 })).hits).toHaveLength(4);
      expect((await store.find({ text: 'lyon', appName: 'other-app' })).hits).toEqual([]);
    });

    it('filters sessions by state with operators, on any tier and nested paths, combined', async () => {
      const ids = async (...filters: StateFilter[]) =>
        (await store.searchSessions({ appName: APP, filters, limit: 50 })).items.map((item) => item.id).sort();
      // The walk-through's finding: part of a value (`topic=refu`) found nothing.
      expect(await ids({ key: 'destination', op: 'contains', value: 'LYO' })).toEqual(['trip-paris']);
      expect(await ids({ key: 'user:home_city', op: 'contains', value: 'unic' })).toEqual(['trip-paris', 'trip-rome']);
      expect(await ids({ key: 'app:bookings', op: '=', value: 3 })).toHaveLength(SESSIONS.length);
      expect(await ids({ key: 'budget.currency', op: '=', value: 'EUR' })).toEqual(['weekend']);
      expect(await ids({ key: 'budget.amount', op: '>', value: 499 })).toEqual(['weekend']);
      expect(await ids({ key: 'budget.amount', op: '<', value: 500 })).toEqual([]);
      expect(await ids({ key: 'nights', op: 'exists' })).toEqual(['trip-paris']);
      expect(await ids({ key: 'budget.amount', op: 'exists' })).toEqual(['weekend']);
      expect(await ids({ key: 'destination', op: '<', value: 'M' })).toEqual(['trip-paris']);
      expect(await ids({ key: 'destination', op: '!=', value: 'Lyon' })).toHaveLength(SESSIONS.length - 1);
      expect(await ids({ key: 'budget', op: 'contains', value: '"currency"' })).toEqual(['weekend']);
      expect(await ids({ key: 'destination', op: 'exists' }, { key: 'user:home_city', op: '=', value: 'Munich' })).toEqual([
        'trip-paris',
        'trip-rome',
      ]);
      expect(await ids({ key: 'destination', op: 'contains', value: 'o' }, { key: 'nights', op: '>', value: 2 })).toEqual(['trip-paris']);
      expect(await ids({ key: 'temp:scratch', op: 'exists' })).toEqual([]);
    });

    it('searches a session’s events by text in content parts, tool names and authors', async () => {
      const seqs = async (text: string) => (await store.listEvents(paris, { text })).items.map((item) => item.seq);
      expect(await seqs('BOOK_HOTEL')).toEqual([2]);
      expect(await seqs('près de la')).toEqual([1]);
      expect(await seqs('plann')).toEqual([2, 3]);
      expect(await seqs('no such words')).toEqual([]);
      expect((await store.listEvents(paris, { text: 'paris', author: 'user' })).items.map((item) => item.seq)).toEqual([1]);
    });

    it('filters a session’s events by tool name, errors and time range, combined', async () => {
      const seqs = async (query: EventQuery) => (await store.listEvents(paris, query)).items.map((item) => item.seq);
      expect(await seqs({ tool: 'book_hotel' })).toEqual([2]);
      expect(await seqs({ tool: 'book' })).toEqual([]);
      expect(await seqs({ from: T0 + 2 })).toEqual([2, 3]);
      expect(await seqs({ to: T0 + 2.6 })).toEqual([1, 2]);
      expect(await seqs({ from: T0 + 2, to: T0 + 2.6, author: 'planner' })).toEqual([2]);
      expect(await seqs({ errors: true })).toEqual([]);
    });

    it('shows the three tiers side by side, with what set each key', async () => {
      const tiers = await store.getSessionTiers(paris);
      expect(values(tiers?.app)).toEqual(FINAL.app);
      expect(values(tiers?.user)).toEqual(FINAL.alice);
      expect(values(tiers?.session)).toEqual(FINAL.tripParis);
      const destination = tiers?.session.find((entry) => entry.key === 'destination');
      expect(destination?.lastChange).toMatchObject({ eventId: 'e3', eventSeq: 3 });
      expect(values(await store.getAppState(APP))).toEqual(FINAL.app);
      expect(values(await store.getUserState(APP, 'alice'))).toEqual(FINAL.alice);
      const session = await store.getSession(paris);
      expect(session?.state).toEqual({ destination: 'Lyon', nights: 3, 'app:bookings': 3, 'user:home_city': 'Munich' });
      expect(session?.events.map((event) => event.id)).toEqual(['e1', 'e2', 'e3']);
      expect(await store.getSession({ ...paris, userId: 'bob' })).toBeNull();
    });

    it('reads events in ADK’s camelCase with every field', async () => {
      const session = await store.getSession(paris, { numRecentEvents: 2 });
      expect(session?.events.map((event) => event.id)).toEqual(['e2', 'e3']);
      const [call, last] = session?.events ?? [];
      expect(call).toMatchObject({
        id: 'e2',
        invocationId: 'inv-e2',
        author: 'planner',
        timestamp: SESSIONS[0]?.events[1]?.timestamp,
        content: {
          role: 'model',
          parts: [{ functionCall: { id: 'call-1', name: 'book_hotel', args: { city: 'Paris', max_price: 200 } } }],
        },
        actions: { stateDelta: { destination: 'Paris', 'user:home_city': 'Berlin', 'app:bookings': 1 } },
      });
      const stored: Record<string, unknown> = { turnComplete: true, customMetadata: { trace_id: 'abc' } };
      for (const field of subject.eventFieldsNotStored ?? []) delete stored[field];
      expect(last).toMatchObject(stored);
      const first = (await store.getSession(paris))?.events[0];
      expect(first?.content).toEqual({ role: 'user', parts: [{ text: 'Plan a trip to Paris, près de la Seine' }] });
    });

    it('gives the timeline with per-key deltas and old values', async () => {
      const page = await readTimeline(store, paris, { limit: 10 });
      expect(page.total).toBe(3);
      expect(page.items.map((item) => item.seq)).toEqual([1, 2, 3]);
      const changes = (seq: number) =>
        page.items
          .find((item) => item.seq === seq)
          ?.changes.map((change) => [change.scope, change.key, change.oldValue, change.newValue])
          .sort((a, b) => String(a[1]).localeCompare(String(b[1])));
      expect(changes(1)).toEqual([]);
      expect(changes(2)).toEqual([
        ['app', 'bookings', undefined, 1],
        ['session', 'destination', undefined, 'Paris'],
        ['user', 'home_city', undefined, 'Berlin'],
      ]);
      expect(changes(3)).toEqual([
        ['app', 'bookings', 1, 2],
        ['session', 'destination', 'Paris', 'Lyon'],
        ['session', 'nights', undefined, 3],
      ]);
      const touching = await store.listEvents(paris, { touchedKey: 'destination' });
      expect(touching.items.map((item) => item.seq)).toEqual([2, 3]);
      expect((await store.listEvents(paris, { newestFirst: true, limit: 1 })).items[0]?.event.id).toBe('e3');
      expect((await store.listEvents(paris, { author: 'user' })).total).toBe(1);
      const history = await store.getKeyHistory({
        appName: APP,
        scope: 'session',
        userId: 'alice',
        sessionId: 'trip-paris',
        key: 'destination',
      });
      expect(history.items.map((change) => change.newValue)).toEqual(['Lyon', 'Paris']);
      const userHistory = await store.getUserHistory(APP, 'alice');
      expect(userHistory.items.filter((change) => change.scope === 'user').map((change) => change.newValue)).toEqual(['Munich', 'Berlin']);
    });

    it('lists a user’s own tier only, each old value what the user’s previous change left, whichever session made it', async () => {
      const history = await store.getUserHistory(APP, 'alice');
      // trip-paris set Berlin, then trip-rome Munich: the app tier's bookings are the app's history, not alice's.
      expect(history.items.map((change) => [change.scope, change.key, change.oldValue, change.newValue])).toEqual([
        ['user', 'home_city', 'Berlin', 'Munich'],
        ['user', 'home_city', undefined, 'Berlin'],
      ]);
      expect(history.total).toBe(2);
    });

    it('travels back in time to any event', async () => {
      const after2 = await store.getStateAsOf(paris, 2);
      expect(values(after2?.session)).toEqual({ destination: 'Paris' });
      expect(values(after2?.user)).toEqual({ home_city: 'Berlin' });
      expect(values(after2?.app)).toEqual({ bookings: 1 });
      const view = await sessionStateView(store, paris, 3);
      expect(values(view.session)).toEqual(FINAL.tripParis);
      expect(view.eventCount).toBe(3);
      expect(await store.getStateAsOf(paris, 99)).toBeNull();
    });

    it('renders a template over the stored state, now and as of an event', async () => {
      const template = 'Going to {destination} from {user:home_city}';
      const now = await renderState(store, paris);
      expect(renderTemplate(template, now.state, { written: now.written }).text).toBe('Going to Lyon from Munich');
      const then = await renderState(store, paris, 2);
      expect(renderTemplate(template, then.state, { written: then.written }).text).toBe('Going to Paris from Berlin');
    });
  });
}
