// SqliteSessionService's merge rule: adk-python 2.8.0 and later merge a delta
// as dict.update() (null stored, nested objects replaced, the delta's keys
// first); older releases used json_patch (null removes, objects merge). The
// rows Statehouse writes must be the rows the agent's release writes, byte for
// byte, and history and time travel must replay by the same rule.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { appendPythonSqliteEvent, PY_SQLITE_DDL } from '../../../testing/adk-fixtures';
import type { PythonSqliteMerge } from '../../../testing/adk-fixtures/python-sqlite';
import { openAdkStore, storeOptionsOf } from '../open';
import type { AdkSessionStore } from '../base/store';

const APP = 'merge_app';
const ref = { appName: APP, userId: 'u', sessionId: 's' };
const FIRST = { nested: { a: 1, b: 2 }, gone: 1, 'app:tier': { x: 1 }, 'user:flag': true };
const SECOND = { nested: { b: 3, c: 4 }, gone: null, 'app:tier': { y: 2 }, 'user:flag': null };

let dir: string | undefined;
let store: AdkSessionStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A session as create_session leaves it, with tiers, before the append. */
function seed(path: string): void {
  const db = new Database(path);
  db.exec(PY_SQLITE_DDL);
  db.prepare('INSERT INTO app_states VALUES (?, ?, ?)').run(APP, JSON.stringify({ other: 'o' }), 100);
  db.prepare('INSERT INTO user_states VALUES (?, ?, ?, ?)').run(APP, 'u', JSON.stringify({ keep: 1 }), 100);
  db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?)').run(APP, 'u', 's', JSON.stringify({ keep: 'k' }), 100, 100);
  db.close();
}

function states(path: string): { session: string; app: string; user: string } {
  const db = new Database(path, { readonly: true });
  try {
    const one = (sql: string) => (db.prepare(sql).get() as { state: string }).state;
    return {
      session: one('SELECT state FROM sessions'),
      app: one('SELECT state FROM app_states'),
      user: one('SELECT state FROM user_states'),
    };
  } finally {
    db.close();
  }
}

const EXPECTED: Record<PythonSqliteMerge, { session: object; app: object; user: object; sessionKeys: string[] }> = {
  update: {
    session: { nested: { b: 3, c: 4 }, gone: null, keep: 'k' },
    app: { tier: { y: 2 }, other: 'o' },
    user: { flag: null, keep: 1 },
    sessionKeys: ['nested', 'gone', 'keep'],
  },
  json_patch: {
    session: { keep: 'k', nested: { a: 1, b: 3, c: 4 } },
    app: { tier: { x: 1, y: 2 }, other: 'o' },
    user: { keep: 1 },
    sessionKeys: ['keep', 'nested'],
  },
};

describe.each(['update', 'json_patch'] as const)('SqliteSessionService merging by %s', (rule) => {
  it('writes the rows the agent would write, and replays by the same rule', async () => {
    dir = mkdtempSync(join(tmpdir(), 'h8-merge-'));
    const agentFile = join(dir, 'agent.db');
    const consoleFile = join(dir, 'console.db');
    seed(agentFile);
    seed(consoleFile);
    const events = [
      { id: 'e1', timestamp: 200.5, delta: FIRST },
      { id: 'e2', timestamp: 201.5, delta: SECOND },
    ];
    for (const { id, timestamp, delta } of events) {
      const actions = { state_delta: delta, artifact_delta: {}, requested_auth_configs: {}, requested_tool_confirmations: {} };
      appendPythonSqliteEvent(agentFile, APP, 'u', 's', { id, invocation_id: 'i', author: 'agent', timestamp, actions }, rule);
    }
    store = await openAdkStore(rule === 'update' ? consoleFile : `${consoleFile}?merge=json_patch`);
    expect(store.info.description).toContain(rule === 'update' ? 'dict.update()' : 'json_patch');
    for (const { id, timestamp, delta } of events) {
      const before = await store.getSessionSummary(ref);
      await store.append(
        ref,
        { id, invocationId: 'i', author: 'agent', timestamp, actions: { stateDelta: delta } },
        { expectedRevision: before?.revision },
      );
    }

    const written = states(consoleFile);
    expect(written).toEqual(states(agentFile));
    expect(JSON.parse(written.session)).toEqual(EXPECTED[rule].session);
    expect(Object.keys(JSON.parse(written.session))).toEqual(EXPECTED[rule].sessionKeys);
    expect(JSON.parse(written.app)).toEqual(EXPECTED[rule].app);
    expect(JSON.parse(written.user)).toEqual(EXPECTED[rule].user);

    // Replay (time travel to the last event, the event's own changes) agrees with the rows.
    const asOf = await store.getStateAsOf(ref, 2);
    const byKey = (entries: { key: string; value: unknown }[] | undefined) =>
      Object.fromEntries((entries ?? []).map((e) => [e.key, e.value]));
    expect(byKey(asOf?.session)).toEqual(EXPECTED[rule].session);
    expect(byKey(asOf?.app)).toEqual(EXPECTED[rule].app);
    expect(byKey(asOf?.user)).toEqual(EXPECTED[rule].user);
    const [change] = (await store.getKeyHistory({ ...ref, scope: 'session', key: 'nested' })).items; // newest first
    expect(change?.newValue).toEqual((EXPECTED[rule].session as { nested: unknown }).nested);
  });
});

describe('a console edit of a tier under dict.update()', () => {
  it('sets values whole and removes a removed key, which no merge can express', async () => {
    dir = mkdtempSync(join(tmpdir(), 'h8-merge-'));
    const file = join(dir, 'edit.db');
    seed(file);
    store = await openAdkStore(file);
    await store.editState({ appName: APP, scope: 'app', changes: { other: undefined, tier: { y: null } }, actor: 'ops', reason: 'test' });
    expect(JSON.parse(states(file).app)).toEqual({ tier: { y: null } });
    await store.editState({ appName: APP, userId: 'u', scope: 'user', changes: { keep: null, more: [1] }, actor: 'ops', reason: 'test' });
    expect(JSON.parse(states(file).user)).toEqual({ keep: null, more: [1] });
  });
});

describe('the merge option of a store location', () => {
  it('is taken off the location, and an unknown rule or a family without rules is refused', async () => {
    expect(storeOptionsOf('./s.db?merge=json_patch')).toEqual({ location: './s.db', stateMerge: 'json_patch' });
    expect(storeOptionsOf('./s.db?zone=UTC&merge=update')).toEqual({ location: './s.db', zone: 'UTC', stateMerge: 'update' });
    expect(() => storeOptionsOf('./s.db?merge=deep')).toThrow(/not a merge rule/);
  });
});
