// adk-js's appendEvent, given an event whose id the session already stores,
// rewrites that row in place (eventData and timestamp: `existingStorageEvent`
// in core/src/sessions/database_session_service.ts) and applies its delta
// again. At the same timestamp the event keeps its place in ADK's order, so
// time travel must notice the rewrite by its content, both in the timeline a
// console holds and in the checkpoints kept for the next console.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEvent, createEventActions } from '@google/adk';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adkJsService } from '../../../testing/adk-fixtures/adk-js';
import { MemoryCheckpoints } from '../base/checkpoints';
import { CHECKPOINT_EVERY } from '../base/timeline';
import { openAdkStore, type AdkSessionStore } from '..';

const EVENTS = CHECKPOINT_EVERY + 20;
const ref = { appName: 'shop', userId: 'u', sessionId: 'long' };
const BASE_MS = Date.UTC(2026, 10, 20, 9, 0, 0);
const value = (entries: { key: string; value: unknown }[] | undefined, key: string) => entries?.find((entry) => entry.key === key)?.value;

describe('an event adk-js rewrites in place under the same id and timestamp', () => {
  let dir: string;
  let url: string;
  const checkpoints = new MemoryCheckpoints();
  let store: AdkSessionStore | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'h8-replace-'));
    url = `file:${join(dir, 'agent.db')}`;
    const service = await adkJsService(url);
    try {
      const session = await service.createSession({ ...ref, state: {} });
      for (let i = 1; i <= 4; i += 1) {
        const delta = i === 3 ? { pinned: 'before' } : { counter: i };
        const actions = createEventActions({ stateDelta: delta });
        await service.appendEvent({
          session,
          event: createEvent({ id: `e${i}`, invocationId: 'inv', author: 'agent', timestamp: BASE_MS + i * 1000, actions }),
        });
      }
    } finally {
      await service.close();
    }
    // The rest of a long session, cloned in SQL from the row adk-js wrote for event 4 (its appends take a transaction each).
    const db = new Database(url.slice('file:'.length));
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 5 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO events (id, app_name, user_id, session_id, invocation_id, timestamp, event_data)
       SELECT 'e' || i, app_name, user_id, session_id, invocation_id, ? + i * 1000,
              json_set(event_data, '$.id', 'e' || i, '$.timestamp', ? + i * 1000, '$.actions.state_delta', json_object('counter', i))
       FROM events, n WHERE id = 'e4'`,
    ).run(EVENTS, BASE_MS, BASE_MS);
    db.prepare('UPDATE sessions SET update_time = ?').run(BASE_MS + EVENTS * 1000);
    db.close();
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is seen by the console that travelled before the rewrite, and by a console opened after it', async () => {
    store = await openAdkStore(url.slice('file:'.length), { checkpoints });
    const before = await store.getStateAsOf(ref, EVENTS - 5);
    expect(value(before?.session, 'pinned')).toBe('before');
    expect(value(before?.session, 'counter')).toBe(EVENTS - 5);

    // The agent appends event 3 again, as adk-js does when it re-appends an event it already stored.
    const service = await adkJsService(url);
    try {
      const session = (await service.getSession(ref))!;
      await service.appendEvent({
        session,
        event: createEvent({
          id: 'e3',
          invocationId: 'inv',
          author: 'agent',
          timestamp: BASE_MS + 3 * 1000,
          actions: createEventActions({ stateDelta: { pinned: 'after' } }),
        }),
      });
    } finally {
      await service.close();
    }

    const held = await store.getStateAsOf(ref, EVENTS - 5);
    expect(value(held?.session, 'pinned')).toBe('after');
    await store.close();

    // A new console with the same kept checkpoints (the one at 500 was replayed with the old event 3).
    store = await openAdkStore(url.slice('file:'.length), { checkpoints });
    const reopened = await store.getStateAsOf(ref, CHECKPOINT_EVERY + 5);
    expect(value(reopened?.session, 'pinned')).toBe('after');
    expect(value(reopened?.session, 'counter')).toBe(CHECKPOINT_EVERY + 5);
  }, 60_000);
});
