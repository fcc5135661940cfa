// A value written through /api or the console is stored as its JSON text
// spelled it: `2.0` stays `2.0` (a float to a Python agent reading the row),
// in the tier rows, their history and the event's stored delta, while
// validation, answers and merges see the parsed values. On SQLite and
// PostgreSQL.
import { sqltag as sql } from '@prisma/client/runtime/client';
import { describe, expect, it } from 'vitest';
import { appendEventCommand } from '@/lib/commands/append-event';
import { editStateCommand } from '@/lib/commands/edit-state';
import { importSessionFile } from '@/lib/commands/import-sessions';
import { call } from '@/lib/testing/http';
import { testProviders } from '@/lib/testing/databases';
import { uniqueName } from '@/lib/testing/factories';
import { useTestDatabase } from '@/lib/testing/use-test-database';
import * as appState from './apps/[app]/state/route';
import * as sessionRoute from './apps/[app]/users/[user]/sessions/[id]/route';
import * as sessionEvents from './apps/[app]/users/[user]/sessions/[id]/events/route';
import * as sessionFork from './apps/[app]/users/[user]/sessions/[id]/fork/route';
import * as sessionState from './apps/[app]/users/[user]/sessions/[id]/state/route';
import * as sessions from './apps/[app]/users/[user]/sessions/route';
import * as render from './render/route';

const providers = await testProviders();

describe.each(providers)('values stored as written on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });

  const stored = async (table: 'session_state' | 'app_state' | 'user_state', appName: string) =>
    Object.fromEntries(
      (
        await database.db.client.$queryRaw<{ key: string; value: string }[]>(
          table === 'session_state'
            ? sql`SELECT t.key, t.value FROM session_state t JOIN sessions s ON s.pk = t.session_pk WHERE s.app_name = ${appName}`
            : table === 'app_state'
              ? sql`SELECT key, value FROM app_state WHERE app_name = ${appName}`
              : sql`SELECT key, value FROM user_state WHERE app_name = ${appName}`,
        )
      ).map((row) => [row.key, row.value]),
    );
  const history = async (appName: string) =>
    (
      await database.db.client.$queryRaw<{ key: string; new_value: string | null }[]>(
        sql`SELECT key, new_value FROM state_changes WHERE app_name = ${appName} ORDER BY id`,
      )
    ).map((row) => [row.key, row.new_value]);
  const eventData = async (appName: string) =>
    (
      await database.db.client.$queryRaw<{ data: string }[]>(
        sql`SELECT e.data FROM events e JOIN sessions s ON s.pk = e.session_pk WHERE s.app_name = ${appName} ORDER BY e.seq`,
      )
    ).map((row) => row.data);

  it('an appended event: tiers, history and the stored event keep 2.0, 1e2 and key order; the answer is JSON as usual', async () => {
    const appName = uniqueName('spelled');
    const params = { app: appName, user: 'alice', id: 's1' };
    await database.service.createSession({ appName, userId: 'alice', sessionId: 's1' });
    const body =
      '{"author": "agent", "timestamp": 1750000000.25, "actions": {"stateDelta": {"f": 2.0, "app:g": 3.0, "user:h": 1e2, "i": 2, "x": 1.5, "o": {"b": 1.0, "10": 2}, "temp:t": 4.0}}}';
    const appended = await call(sessionEvents.POST, 'POST', { params, body });
    expect(appended.status).toBe(200);
    expect((appended.json as { actions: { stateDelta: unknown } }).actions.stateDelta).toEqual({
      f: 2,
      'app:g': 3,
      'user:h': 100,
      i: 2,
      x: 1.5,
      o: { b: 1, 10: 2 },
    });
    expect(await stored('session_state', appName)).toEqual({ f: '2.0', i: '2', x: '1.5', o: '{"b":1.0,"10":2}' });
    expect(await stored('app_state', appName)).toEqual({ g: '3.0' });
    expect(await stored('user_state', appName)).toEqual({ h: '1e2' });
    expect(await history(appName)).toEqual(
      expect.arrayContaining([
        ['f', '2.0'],
        ['g', '3.0'],
        ['h', '1e2'],
      ]),
    );
    const [data] = await eventData(appName);
    expect(data).toContain('"stateDelta":{"f":2.0,"app:g":3.0,"user:h":1e2,"i":2,"x":1.5,"o":{"b":1.0,"10":2}}');
    expect(data).not.toContain('temp:t');
    expect(JSON.parse(data ?? '')).toMatchObject({ author: 'agent', timestamp: 1750000000.25 });

    // What an agent's instruction would read.
    const text = await call(render.POST, 'POST', {
      body: { template: '{f} {app:g} {user:h} {i} {o}', session: { appName, userId: 'alice', sessionId: 's1' } },
    });
    expect(text.json).toMatchObject({ text: "2.0 3.0 100.0 2 {'b': 1.0, '10': 2}" });

    // A retry of the same event (same id) is answered from the store, spelling and all.
    const id = (appended.json as { id: string }).id;
    const retried = await call(sessionEvents.POST, 'POST', { params, body: body.replace('{"author"', `{"id": "${id}", "author"`) });
    expect(retried.status).toBe(200);
    expect(await eventData(appName)).toHaveLength(1);
  });

  it('time travel: the state as of an earlier event keeps the spelling its history holds', async () => {
    const appName = uniqueName('spelled');
    const ref = { appName, userId: 'alice', sessionId: 's1' };
    const params = { app: appName, user: 'alice', id: 's1' };
    await database.service.createSession(ref);
    const first = '{"author": "agent", "actions": {"stateDelta": {"f": 2.0, "app:g": 3.0, "user:h": 1e2}}}';
    expect((await call(sessionEvents.POST, 'POST', { params, body: first })).status).toBe(200);
    const second = '{"author": "agent", "actions": {"stateDelta": {"f": 5, "app:g": 6, "user:h": 7}}}';
    expect((await call(sessionEvents.POST, 'POST', { params, body: second })).status).toBe(200);
    const seq = await database.service.listEvents(ref).then((page) => page.items[0]?.seq);

    const text = await call(render.POST, 'POST', { body: { template: '{f} {app:g} {user:h}', session: { ...ref, asOf: seq } } });
    expect(text.json).toMatchObject({ text: '2.0 3.0 100.0', error: null });
    const view = await call(sessionState.GET, 'GET', { params, query: `asOf=${seq}` });
    expect(view.json).toMatchObject({
      session: [{ key: 'f', value: 2, written: '2.0' }],
      app: [{ key: 'g', value: 3, written: '3.0' }],
      user: [{ key: 'h', value: 100, written: '1e2' }],
    });
  });

  it('snake_case actions, ADK PATCH, session create with state, and app state edits', async () => {
    const appName = uniqueName('spelled');
    const params = { app: appName, user: 'alice', id: 's1' };
    const created = await call(sessions.POST, 'POST', {
      params: { app: appName, user: 'alice' },
      body: '{"session_id": "s1", "state": {"a": 2.0, "user:u": 5.0}}',
    });
    expect(created.status).toBe(200);
    expect(await stored('session_state', appName)).toEqual({ a: '2.0' });
    expect(await stored('user_state', appName)).toEqual({ u: '5.0' });

    const withId = await call(sessionRoute.POST, 'POST', { params: { ...params, id: 's2' }, body: '{"w": 7.0}' });
    expect(withId.status).toBe(200);
    expect(await stored('session_state', appName)).toMatchObject({ w: '7.0' });

    await call(sessionEvents.POST, 'POST', { params, body: '{"author": "agent", "actions": {"state_delta": {"b": 6.0}}}' });
    const patched = await call(sessionRoute.PATCH, 'PATCH', { params, body: '{"state_delta": {"c": 8.0}}' });
    expect(patched.status).toBe(200);
    expect(await stored('session_state', appName)).toMatchObject({ a: '2.0', b: '6.0', c: '8.0' });

    const edited = await call(appState.PATCH, 'PATCH', { params: { app: appName }, body: '{"set": {"k": 9.0}, "reason": "float"}' });
    expect(edited.status).toBe(200);
    expect(await stored('app_state', appName)).toEqual({ k: '9.0' });
  });

  it('a create with initial events: their deltas in the tiers, history and stored events keep 2.0', async () => {
    const appName = uniqueName('spelled');
    const created = await call(sessions.POST, 'POST', {
      params: { app: appName, user: 'alice' },
      body: '{"session_id": "s1", "state": {"a": 2.0}, "events": [{"author": "agent", "actions": {"state_delta": {"e": 4.0, "user:u": 6.0}}}, {"author": "agent", "partial": true}, {"author": "agent", "actions": {"stateDelta": {"n": 1e2}}}]}',
    });
    expect(created.status).toBe(200);
    expect(await stored('session_state', appName)).toEqual({ a: '2.0', e: '4.0', n: '1e2' });
    expect(await stored('user_state', appName)).toEqual({ u: '6.0' });
    expect(await history(appName)).toEqual(
      expect.arrayContaining([
        ['e', '4.0'],
        ['u', '6.0'],
        ['n', '1e2'],
      ]),
    );
    const [first, second] = await eventData(appName);
    expect(first).toContain('"stateDelta":{"e":4.0,"user:u":6.0}');
    expect(second).toContain('"stateDelta":{"n":1e2}');
  });

  it('a fork: the copy keeps the source’s 2.0 in its initial state, its tiers, history and stored events', async () => {
    const appName = uniqueName('spelled');
    await call(sessions.POST, 'POST', {
      params: { app: appName, user: 'alice' },
      body: '{"session_id": "s1", "state": {"a": 2.0}, "events": [{"author": "agent", "actions": {"state_delta": {"e": 4.0}}}, {"author": "agent", "actions": {"stateDelta": {"n": 1e2}}}]}',
    });
    const forked = await call(sessionFork.POST, 'POST', {
      params: { app: appName, user: 'alice', id: 's1' },
      body: '{"atSeq": 1, "sessionId": "f1"}',
    });
    expect(forked.status).toBe(200);
    const fork = await database.db.client.$queryRaw<{ key: string; value: string }[]>(
      sql`SELECT t.key, t.value FROM session_state t JOIN sessions s ON s.pk = t.session_pk WHERE s.app_name = ${appName} AND s.id = 'f1'`,
    );
    expect(Object.fromEntries(fork.map((row) => [row.key, row.value]))).toEqual({ a: '2.0', e: '4.0' });
    const copied = await database.db.client.$queryRaw<{ data: string }[]>(
      sql`SELECT e.data FROM events e JOIN sessions s ON s.pk = e.session_pk WHERE s.app_name = ${appName} AND s.id = 'f1'`,
    );
    expect(copied.map((row) => row.data)).toEqual([expect.stringContaining('"stateDelta":{"e":4.0}')]);
  });

  it('an import: the state and the event deltas of the file keep 2.0 in the tiers, history and stored events', async () => {
    const appName = uniqueName('spelled');
    const file =
      '{"id": "s1", "user_id": "alice", "state": {"a": 2.0, "b": 3.0, "app:c": 5.0}, "events": [{"id": "e1", "author": "agent", "timestamp": 1750000000.5, "actions": {"state_delta": {"b": 3.0, "app:c": 5.0}}}]}';
    const report = await importSessionFile(
      database.service,
      file,
      { appName },
      { dryRun: false, applySharedState: true, actor: 'ada', reason: 'r' },
    );
    expect(report.written).toBe(true);
    expect(await stored('session_state', appName)).toEqual({ a: '2.0', b: '3.0' });
    expect(await stored('app_state', appName)).toEqual({ c: '5.0' });
    expect(await history(appName)).toEqual(
      expect.arrayContaining([
        ['a', '2.0'],
        ['b', '3.0'],
        ['c', '5.0'],
      ]),
    );
    const [data] = await eventData(appName);
    expect(data).toContain('"stateDelta":{"b":3.0,"app:c":5.0}');

    // JSON Lines: each line's own spelling.
    const lines = ['{"id": "s2", "userId": "bob", "state": {"x": 7.0}}', '{"id": "s3", "userId": "bob", "state": {"y": 8}}'].join('\n');
    await importSessionFile(database.service, lines, { appName }, { dryRun: false, actor: 'ada', reason: 'r' });
    expect(await stored('session_state', appName)).toMatchObject({ x: '7.0', y: '8' });
  });

  it('the console: an appended delta and an app or user state edit, as typed', async () => {
    const appName = uniqueName('spelled');
    const session = await database.service.createSession({ appName, userId: 'alice', sessionId: 's1' });
    const appended = await appendEventCommand(
      database.service,
      { appName, userId: 'alice', sessionId: 's1', revision: session.revision, author: 'support', stateDelta: '{"f": 2.0, "n": 1}' },
      { role: 'admin', actor: 'ada' },
    );
    expect(appended.ok).toBe(true);
    expect(await stored('session_state', appName)).toEqual({ f: '2.0', n: '1' });

    const edited = await editStateCommand(database.service, 'ada', {
      scope: 'user',
      appName,
      userId: 'alice',
      changes: [
        { key: 'v', value: '3.0' },
        { key: 'w', value: '"text"' },
      ],
      reason: 'floats',
    });
    expect(edited.ok).toBe(true);
    expect(await stored('user_state', appName)).toEqual({ v: '3.0', w: '"text"' });

    // Only the spelling changes, both ways.
    const respelled = await editStateCommand(database.service, 'ada', {
      scope: 'user',
      appName,
      userId: 'alice',
      changes: [
        { key: 'v', value: '3' },
        { key: 'x', value: '4' },
      ],
      reason: 'an int, then a float',
    });
    expect(respelled.ok).toBe(true);
    await editStateCommand(database.service, 'ada', {
      scope: 'user',
      appName,
      userId: 'alice',
      changes: [{ key: 'x', value: '4.0' }],
      reason: 'a float',
    });
    expect(await stored('user_state', appName)).toEqual({ v: '3', w: '"text"', x: '4.0' });
  });
});
