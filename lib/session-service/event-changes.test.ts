// Contract of listEventChanges (the timeline's per-key diffs), on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testProviders, type TestDatabase } from '../testing/databases';
import type { SessionServiceError } from './errors';
import type { PrismaSessionService } from './prisma-service';
import type { NewEvent, StateRecord } from './types';

const providers = await testProviders();

let counter = 0;
function uniqueApp(): string {
  counter += 1;
  return `changes-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

function delta(stateDelta: StateRecord): NewEvent {
  return { author: 'agent', invocationId: 'inv-1', actions: { stateDelta } };
}

describe.each(providers)('listEventChanges on %s', (provider) => {
  let database: TestDatabase;
  let service: PrismaSessionService;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    service = database.service;
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('gives each event’s changes in every tier with old and new values', async () => {
    const appName = uniqueApp();
    const ref = { appName, userId: 'u', sessionId: 's' };
    const session = await service.createSession({ ...ref, state: { 'user:plan': 'free', topic: 'math' } });
    await service.appendEvent(session, delta({ 'user:plan': 'pro', 'app:tone': 'warm', topic: 'physics', 'temp:t': 1 }));
    await service.appendEvent(session, { author: 'user', invocationId: 'inv-2' });
    await service.appendEvent(session, delta({ topic: null, fresh: { nested: [1, 2] } }));

    const changes = await service.listEventChanges(ref, [1, 2, 3]);
    const summary = changes.map((c) => [c.eventSeq, c.scope, c.key, c.oldValue, c.newValue]);
    expect(summary).toEqual([
      [1, 'app', 'tone', undefined, 'warm'],
      [1, 'user', 'plan', 'free', 'pro'],
      [1, 'session', 'topic', 'math', 'physics'],
      [3, 'session', 'fresh', undefined, { nested: [1, 2] }],
      [3, 'session', 'topic', 'physics', null],
    ]);
    expect(changes[0]).toMatchObject({ actor: 'agent', sourceUserId: 'u', sourceSessionId: 's', appName });
    expect(changes.every((c) => typeof c.eventId === 'string')).toBe(true);

    // Only the events asked for, duplicates ignored; none asked for, none given.
    expect((await service.listEventChanges(ref, [3, 3])).map((c) => c.key)).toEqual(['fresh', 'topic']);
    expect(await service.listEventChanges(ref, [2])).toEqual([]);
    expect(await service.listEventChanges(ref, [])).toEqual([]);
  });

  it('ignores the shared-tier history of a deleted session whose id was reused', async () => {
    const appName = uniqueApp();
    const ref = { appName, userId: 'u', sessionId: 'reused' };
    const first = await service.createSession(ref);
    await service.appendEvent(first, delta({ 'user:a': 1, 'app:b': 2 }));
    await service.deleteSession(ref);

    const second = await service.createSession(ref);
    await service.appendEvent(second, delta({ c: 3 }));
    const changes = await service.listEventChanges(ref, [1]);
    expect(changes.map((c) => [c.scope, c.key, c.newValue])).toEqual([['session', 'c', 3]]);
  });

  it('keeps other sessions’ and edits’ changes out', async () => {
    const appName = uniqueApp();
    const ref = { appName, userId: 'u', sessionId: 'mine' };
    const mine = await service.createSession(ref);
    const sibling = await service.createSession({ appName, userId: 'u', sessionId: 'sibling' });
    await service.appendEvent(sibling, delta({ 'user:x': 'sibling' }));
    await service.editState({ appName, userId: 'u', scope: 'user', changes: { x: 'support' }, actor: 'ops', reason: 'fix' });
    await service.appendEvent(mine, delta({ 'user:x': 'mine' }));

    const changes = await service.listEventChanges(ref, [1]);
    expect(changes.map((c) => [c.key, c.oldValue, c.newValue, c.actor])).toEqual([['x', 'support', 'mine', 'agent']]);
  });

  it('refuses an unknown session and bad sequence numbers', async () => {
    const missing = { appName: uniqueApp(), userId: 'u', sessionId: 'nope' };
    const notFound = await service.listEventChanges(missing, [1]).catch((error: SessionServiceError) => error);
    expect(notFound).toMatchObject({ code: 'NOT_FOUND', message: 'Session nope not found.' });

    const ref = { appName: uniqueApp(), userId: 'u', sessionId: 's' };
    await service.createSession(ref);
    for (const seqs of [[0], [1.5], Array.from({ length: 1001 }, (_, i) => i + 1)]) {
      const invalid = await service.listEventChanges(ref, seqs).catch((error: SessionServiceError) => error);
      expect(invalid).toMatchObject({ code: 'INVALID_INPUT' });
    }
  });
});
