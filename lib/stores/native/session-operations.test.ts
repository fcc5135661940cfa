// Whole-session operations on SQLite and PostgreSQL: forks start from the
// replayed state, rewinds follow adk-python's rule, pruning deletes what its
// dry run counted, and refused operations change nothing.
import { describe, expect, it } from 'vitest';
import { databaseDump } from '../../testing/http';
import { appendEvent } from '../../session-service/append';
import type { SessionServiceError } from '../../session-service/errors';
import type { SessionOperations } from '../../session-service/operations';
import { replaySessionState } from '../../session-service/replay';
import { rewindSession, rewindStateDelta } from '../../session-service/rewind';
import type { Event, NewEvent, Session, StateRecord } from '../../session-service/types';
import { testProviders } from '../../testing/databases';
import { uniqueName } from '../../testing/factories';
import { useTestDatabase } from '../../testing/use-test-database';

const providers = await testProviders();
const audit = { actor: 'tester', reason: 'test' };

async function rejection(promise: Promise<unknown>): Promise<SessionServiceError> {
  try {
    await promise;
  } catch (error) {
    return error as SessionServiceError;
  }
  throw new Error('expected a rejection');
}

// Events 10 ms apart: appends within one clock tick would share a timestamp, and "before a time" could not split them.
let clock = Date.now() / 1000;
const step = (invocationId: string, stateDelta: StateRecord, text = invocationId): NewEvent => ({
  author: 'agent',
  invocationId,
  timestamp: (clock += 0.01),
  content: { role: 'model', parts: [{ text }] },
  actions: { stateDelta },
});

describe.each(providers)('session operations on %s', (provider) => {
  const database = useTestDatabase(provider);
  const ops = (): SessionOperations => database.service;

  /** A session with initial state and five events over every tier; `temp:` keys and nulls included. */
  async function conversation(appName = uniqueName('app')): Promise<Session> {
    const session = await database.service.createSession({
      appName,
      userId: 'u',
      sessionId: 's',
      state: { topic: 'tea', 'user:name': 'Ada', 'app:banner': 'hi' },
    });
    await appendEvent(database.service, session, step('i1', { topic: 'coffee', mood: 'ok', 'temp:x': 1 }));
    await appendEvent(database.service, session, step('i2', { mood: null, 'user:lang': 'en', cart: [1] }));
    await appendEvent(database.service, session, step('i2', { cart: [1, 2], 'app:count': 1 }));
    await appendEvent(database.service, session, step('i3', { topic: 'juice', extra: { a: 1 } }));
    await appendEvent(database.service, session, step('i4', { 'user:lang': 'fr' }));
    return session;
  }

  describe('fork', () => {
    it('copies events 1..N with the session state replayed to N; shared tiers are the same rows', async () => {
      const source = await conversation();
      const ref = { appName: source.appName, userId: 'u', sessionId: 's' };
      const all = (await database.service.getSession(ref))!;
      for (const atSeq of [1, 3, 5]) {
        const fork = await ops().forkSession({ source: ref, atSeq, sessionId: `fork-${atSeq}` }, audit);
        expect(fork).toMatchObject({ id: `fork-${atSeq}`, eventCount: atSeq });
        const forkRef = { ...ref, sessionId: `fork-${atSeq}` };
        const copied = (await database.service.getSession(forkRef))!;
        expect(copied.events).toEqual(all.events.slice(0, atSeq));
        const tiers = (await database.service.getSessionTiers(forkRef))!;
        const asOf = (await database.service.getStateAsOf(ref, atSeq))!;
        const sessionState = Object.fromEntries(tiers.session.map((entry) => [entry.key, entry.value]));
        expect(sessionState).toEqual(Object.fromEntries(asOf.session.map((entry) => [entry.key, entry.value])));
        expect(sessionState).toEqual(replaySessionState({ topic: 'tea' }, all.events.slice(0, atSeq)));
        // The fork reads the app and user tiers as they are now, not as of N.
        const sourceTiers = (await database.service.getSessionTiers(ref))!;
        expect(tiers.user.map((entry) => [entry.key, entry.value])).toEqual(sourceTiers.user.map((entry) => [entry.key, entry.value]));
        // Time travel and per-event diffs work on the copy as on the original.
        expect((await database.service.getStateAsOf(forkRef, 1))!.session).toEqual(
          expect.arrayContaining([expect.objectContaining({ key: 'topic', value: 'coffee' })]),
        );
      }
      const meta = await ops().getSessionMeta(ref);
      expect(meta?.forks).toEqual([
        { sessionId: 'fork-1', atSeq: 1 },
        { sessionId: 'fork-3', atSeq: 3 },
        { sessionId: 'fork-5', atSeq: 5 },
      ]);
      expect((await ops().getSessionMeta({ ...ref, sessionId: 'fork-3' }))?.forkedFrom).toEqual({ sessionId: 's', atSeq: 3 });
      const history = await ops().listOperations({ appName: ref.appName, userId: 'u', sessionId: 'fork-3' });
      expect(history.items).toEqual([expect.objectContaining({ kind: 'fork', actor: 'tester', detail: { fromSessionId: 's', atSeq: 3 } })]);
    });

    it('does not write the shared tiers again', async () => {
      const source = await conversation();
      const ref = { appName: source.appName, userId: 'u', sessionId: 's' };
      const before = await database.service.getKeyHistory({ appName: ref.appName, scope: 'user', userId: 'u', key: 'lang' });
      await ops().forkSession({ source: ref, atSeq: 5 }, audit);
      const after = await database.service.getKeyHistory({ appName: ref.appName, scope: 'user', userId: 'u', key: 'lang' });
      expect(after.total).toBe(before.total);
    });

    it('refuses event numbers past the end, zero, unknown sessions and taken ids, changing nothing', async () => {
      const source = await conversation();
      const ref = { appName: source.appName, userId: 'u', sessionId: 's' };
      await database.service.createSession({ appName: ref.appName, userId: 'u', sessionId: 'taken' });
      const before = await databaseDump(database);
      const past = await rejection(ops().forkSession({ source: ref, atSeq: 6 }, audit));
      expect([past.code, past.message]).toEqual(['INVALID_INPUT', 'atSeq: session s has 5 events; there is no event #6.']);
      expect((await rejection(ops().forkSession({ source: ref, atSeq: 0 }, audit))).code).toBe('INVALID_INPUT');
      expect((await rejection(ops().forkSession({ source: ref, atSeq: 1.5 }, audit))).code).toBe('INVALID_INPUT');
      expect((await rejection(ops().forkSession({ source: { ...ref, sessionId: 'nope' }, atSeq: 1 }, audit))).code).toBe('NOT_FOUND');
      expect((await rejection(ops().forkSession({ source: ref, atSeq: 2, sessionId: 'taken' }, audit))).code).toBe('ALREADY_EXISTS');
      expect(await databaseDump(database)).toEqual(before);
    });
  });

  describe('rewind', () => {
    it("appends upstream's rewind event: a user event naming the invocation, restoring session keys only", async () => {
      const source = await conversation();
      const ref = { appName: source.appName, userId: 'u', sessionId: 's' };
      const loaded = (await database.service.getSession(ref))!;
      const expected = rewindStateDelta(loaded.events, 1, loaded.state);
      const outcome = await rewindSession(database.service, ref, 'i2', { actor: 'tester' });
      expect(outcome.undoneEvents).toBe(4);
      expect(outcome.event).toMatchObject({
        author: 'user',
        actions: { rewindBeforeInvocationId: 'i2', stateDelta: expected },
      });
      expect(outcome.event.invocationId).toMatch(/^e-/);
      // Before i2: topic coffee, mood ok; cart and extra did not exist (nulled, as upstream); shared keys untouched.
      expect(expected).toEqual({ topic: 'coffee', mood: 'ok', cart: null, extra: null });
      const after = (await database.service.getSession(ref))!;
      expect(after.state).toMatchObject({ topic: 'coffee', mood: 'ok', cart: null, 'user:lang': 'fr', 'app:count': 1 });
      expect(after.events).toHaveLength(6);
    });

    it('refuses an unknown invocation and a stale copy, changing nothing', async () => {
      const source = await conversation();
      const ref = { appName: source.appName, userId: 'u', sessionId: 's' };
      const before = await databaseDump(database);
      const unknown = await rejection(rewindSession(database.service, ref, 'nope'));
      expect([unknown.code, unknown.message]).toEqual(['NOT_FOUND', 'Invocation ID not found: nope']);
      expect((await rejection(rewindSession(database.service, ref, 'i1', { expectedRevision: 1 }))).code).toBe('STALE_SESSION');
      expect((await rejection(rewindSession(database.service, { ...ref, sessionId: 'x' }, 'i1'))).code).toBe('NOT_FOUND');
      expect(await databaseDump(database)).toEqual(before);
    });
  });

  describe('titles and labels', () => {
    it('sets, keeps and clears them, recording each edit', async () => {
      const source = await conversation();
      const ref = { appName: source.appName, userId: 'u', sessionId: 's' };
      expect(await ops().setSessionMeta(ref, { title: '  Refund  ', labels: ['b', 'a', 'b', ' '] }, audit)).toMatchObject({
        title: 'Refund',
        labels: ['a', 'b'],
      });
      expect(await ops().setSessionMeta(ref, { labels: [] }, audit)).toMatchObject({ title: 'Refund', labels: [] });
      expect(await ops().setSessionMeta(ref, { title: null }, audit)).toMatchObject({ title: null });
      expect((await ops().listOperations({ appName: ref.appName, sessionId: 's' })).total).toBe(3);
      expect(await ops().getSessionMeta({ ...ref, sessionId: 'nope' })).toBeNull();
      await ops().setSessionMeta(ref, { title: 'Lost Luggage', labels: ['vip'] }, audit);
      const byTitle = await database.service.searchSessions({ appName: ref.appName, idContains: 'luggage' });
      expect(byTitle.items).toEqual([expect.objectContaining({ id: 's', title: 'Lost Luggage', labels: ['vip'] })]);
      expect((await database.service.searchSessions({ appName: ref.appName, userId: 'u', idContains: 'VIP' })).total).toBe(1);
      expect((await database.service.searchSessions({ appName: ref.appName, idContains: 'nothing' })).total).toBe(0);
      await database.service.deleteSession(ref);
      await database.service.createSession({ appName: ref.appName, userId: 'u', sessionId: 's' });
      expect(await ops().getSessionMeta(ref)).toMatchObject({ title: null, labels: [] });
      expect((await rejection(ops().setSessionMeta({ ...ref, sessionId: 'nope' }, { title: 'x' }, audit))).code).toBe('NOT_FOUND');
    });
  });

  describe('retention', () => {
    it('deletes what the dry run counted, and records who and why', async () => {
      const source = await conversation();
      const ref = { appName: source.appName, userId: 'u', sessionId: 's' };
      const byInvocation = { kind: 'invocation', ref, invocationId: 'i2' } as const;
      const dry = await ops().prune(byInvocation, { ...audit, dryRun: true });
      expect(dry).toEqual({ sessions: 0, events: 2 });
      expect((await database.service.getSession(ref))!.events).toHaveLength(5);
      expect(await ops().prune(byInvocation, { ...audit, dryRun: false })).toEqual(dry);
      const left = (await database.service.getSession(ref))!;
      expect(left.events.map((event: Event) => event.invocationId)).toEqual(['i1', 'i3', 'i4']);
      // State is not rewound by deleting events.
      expect(left.state).toMatchObject({ cart: [1, 2], topic: 'juice' });

      const time = left.events[1]!.timestamp;
      const before = { kind: 'eventsBefore', ref, before: time } as const;
      expect(await ops().prune(before, { ...audit, dryRun: true })).toEqual({ sessions: 0, events: 1 });
      expect(await ops().prune(before, { ...audit, dryRun: false })).toEqual({ sessions: 0, events: 1 });

      const whole = { kind: 'session', ref } as const;
      expect(await ops().prune(whole, { ...audit, dryRun: true })).toEqual({ sessions: 1, events: 2 });
      expect(await ops().prune(whole, { ...audit, dryRun: false })).toEqual({ sessions: 1, events: 2 });
      expect(await database.service.getSession(ref)).toBeNull();
      const history = await ops().listOperations({ appName: ref.appName });
      expect(history.items.map((item) => [item.kind, item.actor, item.reason, item.detail.target])).toEqual([
        ['prune', 'tester', 'test', 'session'],
        ['prune', 'tester', 'test', 'eventsBefore'],
        ['prune', 'tester', 'test', 'invocation'],
      ]);
    });

    it('deletes sessions idle for N days, counted first', async () => {
      const appName = uniqueName('app');
      const now = Date.now() / 1000;
      await database.service.createSession({ appName, userId: 'u', sessionId: 'fresh' });
      const old = await database.service.createSession({ appName, userId: 'u', sessionId: 'old' });
      await appendEvent(database.service, old, { author: 'user', timestamp: now - 40 * 86_400 });
      await appendEvent(database.service, old, { author: 'user', timestamp: now - 31 * 86_400 });
      const idle = { kind: 'idleSessions', appName, idleDays: 30, now } as const;
      const dry = await ops().prune(idle, { ...audit, dryRun: true });
      expect(dry).toEqual({ sessions: 1, events: 2 });
      expect(await ops().prune(idle, { ...audit, dryRun: false })).toEqual(dry);
      expect((await database.service.searchSessions({ appName })).items.map((s) => s.id)).toEqual(['fresh']);
    });

    it('refuses a deletion without a reason, an unknown invocation or session, changing nothing', async () => {
      const source = await conversation();
      const ref = { appName: source.appName, userId: 'u', sessionId: 's' };
      const before = await databaseDump(database);
      expect((await rejection(ops().prune({ kind: 'session', ref }, { actor: 'x', dryRun: false }))).code).toBe('INVALID_INPUT');
      expect((await rejection(ops().prune({ kind: 'invocation', ref, invocationId: 'nope' }, { ...audit, dryRun: false }))).code).toBe(
        'INVALID_INPUT',
      );
      expect((await rejection(ops().prune({ kind: 'session', ref: { ...ref, sessionId: 'nope' } }, { ...audit, dryRun: true }))).code).toBe(
        'NOT_FOUND',
      );
      expect(await databaseDump(database)).toEqual(before);
    });
  });
});
