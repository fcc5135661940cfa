// Contract of listEventChanges (the timeline's per-key diffs), on SQLite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { testProviders } from '../testing/databases';
import { agentDelta, uniqueName } from '../testing/factories';
import { useTestDatabase } from '../testing/use-test-database';
import type { SessionServiceError } from './errors';
import { appendEvent } from './append';

const providers = await testProviders();

describe.each(providers)('listEventChanges on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('gives each event’s changes in every tier with old and new values', async () => {
    const appName = uniqueName('app');
    const ref = { appName, userId: 'u', sessionId: 's' };
    const session = await database.service.createSession({ ...ref, state: { 'user:plan': 'free', topic: 'math' } });
    await appendEvent(database.service, session, agentDelta({ 'user:plan': 'pro', 'app:tone': 'warm', topic: 'physics', 'temp:t': 1 }));
    await appendEvent(database.service, session, { author: 'user', invocationId: 'inv-2' });
    await appendEvent(database.service, session, agentDelta({ topic: null, fresh: { nested: [1, 2] } }));

    const changes = await database.service.listEventChanges(ref, [1, 2, 3]);
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
    expect((await database.service.listEventChanges(ref, [3, 3])).map((c) => c.key)).toEqual(['fresh', 'topic']);
    expect(await database.service.listEventChanges(ref, [2])).toEqual([]);
    expect(await database.service.listEventChanges(ref, [])).toEqual([]);
  });

  it('ignores the shared-tier history of a deleted session whose id was reused', async () => {
    const appName = uniqueName('app');
    const ref = { appName, userId: 'u', sessionId: 'reused' };
    const first = await database.service.createSession(ref);
    await appendEvent(database.service, first, agentDelta({ 'user:a': 1, 'app:b': 2 }));
    await database.service.deleteSession(ref);

    const second = await database.service.createSession(ref);
    await appendEvent(database.service, second, agentDelta({ c: 3 }));
    const changes = await database.service.listEventChanges(ref, [1]);
    expect(changes.map((c) => [c.scope, c.key, c.newValue])).toEqual([['session', 'c', 3]]);
  });

  it('keeps other sessions’ and edits’ changes out', async () => {
    const appName = uniqueName('app');
    const ref = { appName, userId: 'u', sessionId: 'mine' };
    const mine = await database.service.createSession(ref);
    const sibling = await database.service.createSession({ appName, userId: 'u', sessionId: 'sibling' });
    await appendEvent(database.service, sibling, agentDelta({ 'user:x': 'sibling' }));
    await database.service.editState({ appName, userId: 'u', scope: 'user', changes: { x: 'support' }, actor: 'ops', reason: 'fix' });
    await appendEvent(database.service, mine, agentDelta({ 'user:x': 'mine' }));

    const changes = await database.service.listEventChanges(ref, [1]);
    expect(changes.map((c) => [c.key, c.oldValue, c.newValue, c.actor])).toEqual([['x', 'support', 'mine', 'agent']]);
  });

  it('refuses an unknown session and bad sequence numbers', async () => {
    const missing = { appName: uniqueName('app'), userId: 'u', sessionId: 'nope' };
    const notFound = await database.service.listEventChanges(missing, [1]).catch((error: SessionServiceError) => error);
    expect(notFound).toMatchObject({ code: 'NOT_FOUND', message: 'Session nope not found.' });

    const ref = { appName: uniqueName('app'), userId: 'u', sessionId: 's' };
    await database.service.createSession(ref);
    for (const seqs of [[0], [1.5], Array.from({ length: 1001 }, (_, i) => i + 1)]) {
      const invalid = await database.service.listEventChanges(ref, seqs).catch((error: SessionServiceError) => error);
      expect(invalid).toMatchObject({ code: 'INVALID_INPUT' });
    }
  });
});
