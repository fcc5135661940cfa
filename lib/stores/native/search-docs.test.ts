// The native store's text index (search_docs, kept by the search_index
// migration's triggers) on both databases: what the header search finds
// after every kind of write, and what it stops finding after removals.
import { describe, expect, it } from 'vitest';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { testProviders } from '../../testing/databases';
import { useTestDatabase } from '../../testing/use-test-database';

const providers = await testProviders();
const APP = 'support';
const audit = { actor: 'tester' };

describe.each(providers)('search_docs on %s', (provider) => {
  const database = useTestDatabase(provider);
  const found = async (text: string) =>
    (await database.service.find({ text })).hits.map((hit) => [hit.kind, hit.userId ?? '', hit.sessionId ?? '', hit.matched]);

  it('finds a state value of every tier, nested, through the index, and follows edits and appends', async () => {
    const store = database.service;
    await store.createSession({
      appName: APP,
      userId: 'u-100',
      sessionId: 'booking-1',
      state: { profile: { name: 'Carol Nguyen', email: 'carol@example.com' }, topic: 'refund' },
    });
    expect(await found('carol nguyen')).toEqual([['session', 'u-100', 'booking-1', 'profile']]);
    expect(await found('REFU')).toEqual([['session', 'u-100', 'booking-1', 'topic']]);

    await store.editState({ appName: APP, scope: 'user', userId: 'u-100', changes: { tier: 'platinum' }, actor: 'tester', reason: 'test' });
    expect(await found('platin')).toEqual([['user', 'u-100', '', 'user:tier']]);
    await store.editState({ appName: APP, scope: 'app', changes: { banner: 'Winter sale' }, actor: 'tester', reason: 'test' });
    expect(await found('winter')).toEqual([['app', '', '', 'app:banner']]);

    const ref = { appName: APP, userId: 'u-100', sessionId: 'booking-1' };
    await store.append(ref, {
      author: 'agent',
      content: { role: 'model', parts: [{ text: 'Your refund is on its way' }] },
      actions: { stateDelta: { topic: 'shipping', 'user:tier': 'gold' } },
    });
    expect(await found('refu')).toEqual([]);
    expect(await found('shipping')).toEqual([['session', 'u-100', 'booking-1', 'topic']]);
    expect(await found('platin')).toEqual([]);
    expect(await found('gold')).toEqual([['user', 'u-100', '', 'user:tier']]);
  });

  it('keeps event text (content parts, tool names, errors) in the index', async () => {
    const store = database.service;
    const ref = { appName: APP, userId: 'u-200', sessionId: 'tools' };
    await store.createSession(ref);
    await store.append(ref, {
      author: 'agent',
      content: { role: 'model', parts: [{ functionCall: { name: 'lookup_order', args: {} } }] },
    });
    await store.append(ref, { author: 'agent', errorCode: 'RATE_LIMITED', errorMessage: 'Quota exhausted' });
    const bodies = await database.db.client.$queryRaw<{ body: string }[]>(
      sql`SELECT body FROM search_docs WHERE kind = 'event' AND session_id = 'tools' ORDER BY CAST(key AS INTEGER)`,
    );
    expect(bodies.map((row) => row.body)).toEqual(['lookup_order', 'RATE_LIMITED Quota exhausted']);
    const seqs = async (query: { errors?: boolean; tool?: string; text?: string }) =>
      (await store.listEvents(ref, query)).items.map((item) => item.seq);
    expect(await seqs({ errors: true })).toEqual([2]);
    expect(await seqs({ tool: 'lookup_order' })).toEqual([1]);
    expect(await seqs({ text: 'quota' })).toEqual([2]);
  });

  it('finds titles and labels, forks, and forgets deleted and cleared sessions', async () => {
    const store = database.service;
    const ref = { appName: APP, userId: 'u-300', sessionId: 'titled' };
    await store.createSession({ ...ref, state: { note: 'zebra crossing' }, events: [{ author: 'user' }] });
    await store.setSessionMeta?.(ref, { title: 'Escalated by Dana', labels: ['vip-queue'] }, audit);
    expect(await found('escalated')).toEqual([['session', 'u-300', 'titled', 'title or labels']]);
    expect(await found('vip-qu')).toEqual([['session', 'u-300', 'titled', 'title or labels']]);
    await store.forkSession?.({ source: ref, atSeq: 1, sessionId: 'titled-fork' }, audit);
    expect((await found('zebra')).map((hit) => hit[2]).sort()).toEqual(['titled', 'titled-fork']);
    await store.deleteSession(ref);
    expect((await found('zebra')).map((hit) => hit[2])).toEqual(['titled-fork']);
    expect(await found('escalated')).toEqual([]);
    await store.clearData({ appName: APP, userId: 'u-300' });
    expect(await found('zebra')).toEqual([]);
    const left = await database.db.client.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM search_docs WHERE user_id = 'u-300'`);
    expect(Number(left[0]?.n)).toBe(0);
  });

  it('finds notes while they are not removed', async () => {
    const store = database.service;
    const client = database.db.client;
    await store.createSession({ appName: APP, userId: 'u-400', sessionId: 'noted' });
    await client.$executeRaw(
      sql`INSERT INTO session_notes (store_id, app_name, user_id, session_id, author, text, time)
          VALUES ('native', ${APP}, 'u-400', 'noted', 'dana', 'Customer prefers a callback after 5pm', 1)`,
    );
    expect(await found('callback after')).toEqual([['session', 'u-400', 'noted', 'note']]);
    await client.$executeRaw(sql`UPDATE session_notes SET removed_by = 'dana', removed_time = 2 WHERE session_id = 'noted'`);
    expect(await found('callback after')).toEqual([]);
  });
});
