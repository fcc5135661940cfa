// The audit log over every table that records edits and operations: the
// native store's support edits and session operations, an agent store's
// edits, appends and operations, notes written and removed; filtered by
// actor, app, user, key and time, newest first, paged with an exact total.
import { describe, expect, it } from 'vitest';
import { StoreEditLog } from '../adk/audit-log';
import { SqlNoteStore } from '../notes/sql-notes';
import { capability } from '../../session-service/operations';
import { NATIVE_STORE_ID } from '../../session-service/notes';
import { useTestDatabase } from '../../testing/use-test-database';
import { SqlAuditLog } from './sql-audit-log';

describe.each(['sqlite', 'postgresql'] as const)('the audit log on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('lists support edits, operations and notes of the native store, filtered and paged', async () => {
    const store = database.service;
    const log = new SqlAuditLog(database.db.client);
    const notes = new SqlNoteStore(database.db.client, database.db.provider);
    const ref = { appName: 'audit-app', userId: 'carol', sessionId: 's1' };
    // Initial state and agent events are no edits.
    await store.createSession({ ...ref, state: { 'user:plan': 'free', topic: 'refund' } });
    await store.append(ref, { author: 'agent', actions: { stateDelta: { 'user:plan': 'trial' } } });
    await store.editState({
      appName: 'audit-app',
      userId: 'carol',
      scope: 'user',
      changes: { plan: 'pro' },
      actor: 'ann',
      reason: 'upgrade',
    });
    await store.editState({ appName: 'audit-app', scope: 'app', changes: { tone: 'kind' }, actor: 'bob', reason: 'policy' });
    await capability(store, 'forkSession')({ source: ref, atSeq: 1, sessionId: 's2' }, { actor: 'ann', reason: 'what if' });
    const note = await notes.add({ storeId: NATIVE_STORE_ID, ...ref }, { author: 'bob', text: 'called back' }, Date.now() / 1000);
    await notes.remove({ storeId: NATIVE_STORE_ID, ...ref }, note.id, 'ann', Date.now() / 1000 + 1);

    const all = await log.read({ storeId: NATIVE_STORE_ID });
    expect(all.total).toBe(5);
    expect(all.items.map((record) => [record.action, record.actor])).toEqual([
      ['note removed', 'ann'],
      ['note added', 'bob'],
      ['fork', 'ann'],
      ['edit', 'bob'],
      ['edit', 'ann'],
    ]);
    expect(all.items[4]).toMatchObject({
      scope: 'user',
      key: 'plan',
      oldValue: '"trial"',
      newValue: '"pro"',
      reason: 'upgrade',
      userId: 'carol',
    });

    expect((await log.read({ storeId: NATIVE_STORE_ID, actor: 'ann' })).items.map((record) => record.action)).toEqual([
      'note removed',
      'fork',
      'edit',
    ]);
    expect((await log.read({ storeId: NATIVE_STORE_ID, key: 'user:plan' })).items.map((record) => record.actor)).toEqual(['ann']);
    expect((await log.read({ storeId: NATIVE_STORE_ID, key: 'app:plan' })).total).toBe(0);
    expect((await log.read({ storeId: NATIVE_STORE_ID, userId: 'carol' })).total).toBe(4);
    expect((await log.read({ storeId: NATIVE_STORE_ID, appName: 'other' })).total).toBe(0);
    const page = await log.read({ storeId: NATIVE_STORE_ID, limit: 2, offset: 2 });
    expect(page).toMatchObject({ total: 5, items: [{ action: 'fork' }, { action: 'edit', actor: 'bob' }] });
    const future = Date.now() / 1000 + 0.5;
    expect((await log.read({ storeId: NATIVE_STORE_ID, since: future })).items.map((record) => record.action)).toEqual(['note removed']);
    expect((await log.read({ storeId: NATIVE_STORE_ID, until: 0 })).total).toBe(0);
  });

  it('lists an agent store’s edits and appends from Statehouse’s own database, and only that store’s', async () => {
    const log = new SqlAuditLog(database.db.client);
    const edits = new StoreEditLog(database.db.client);
    const entry = {
      appName: 'agent-app',
      scope: 'user' as const,
      userId: 'dave',
      sessionId: '',
      key: 'plan',
      oldValue: 'free',
      newValue: 'pro',
      reason: 'asked',
      eventId: null,
      time: 100,
    };
    await edits.record([
      { ...entry, storeId: 'agents', kind: 'edit', actor: 'ann' },
      { ...entry, storeId: 'agents', kind: 'append', actor: 'bob', sessionId: 's', eventId: 'e1', time: 101 },
      { ...entry, storeId: 'elsewhere', kind: 'edit', actor: 'eve' },
    ]);
    const read = await log.read({ storeId: 'agents' });
    expect(read.items.map((record) => [record.source, record.action, record.actor])).toEqual([
      ['append', 'append', 'bob'],
      ['edit', 'edit', 'ann'],
    ]);
    expect(read.items[1]).toMatchObject({ oldValue: '"free"', newValue: '"pro"' });
  });
});
