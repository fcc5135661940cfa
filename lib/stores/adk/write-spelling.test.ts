// Values Statehouse writes into an ADK store keep their JSON spelling where
// that ADK's own encoder does: adk-python writes json.dumps text (a float
// stays `2.0`, in TEXT, LONGTEXT and JSONB alike), so a float the operator
// wrote, and every float already in the blob Statehouse rewrites, stays a
// float for the Python agent reading the row; adk-rust's serde_json keeps it
// too. adk-js writes JSON.stringify's text (`2`) itself, and so does
// Statehouse there.
import { afterEach, describe, expect, it } from 'vitest';
import { importSessionFile } from '../../commands/import-sessions';
import { forkCommand } from '../../commands/session-ops';
import { openAgentDb } from './agent-db';
import type { AdkSessionStore } from './base/store';
import { testProviders } from '../../testing/databases';
import { mysqlAvailable } from '../../testing/mysql';
import { APP, fixtureLabel, type AdkFixtureKind } from '../../testing/adk-fixtures';
import { layoutOf } from '../../testing/adk-fixtures/hostile';
import { openAdkFixture, type FixtureStore } from '../../testing/adk-fixtures/stores';

const kinds: AdkFixtureKind[] = [
  { family: 'py-sqlite' },
  { family: 'py-db', dialect: 'sqlite', clock: 'utc' },
  { family: 'adk-js', dialect: 'sqlite' },
  { family: 'adk-rust', dialect: 'sqlite' },
];
if ((await testProviders()).includes('postgresql')) {
  kinds.push({ family: 'py-db', dialect: 'postgresql', clock: 'utc' }, { family: 'adk-rust', dialect: 'postgresql' });
}
if (await mysqlAvailable()) kinds.push({ family: 'py-db', dialect: 'mysql', clock: 'utc' });

const ref = { appName: APP, userId: 'alice', sessionId: 'trip-paris' };

describe.each(kinds.map((kind) => [fixtureLabel(kind), kind] as const))('values written as spelled to %s', (_label, kind) => {
  // adk-python's json.dumps and adk-rust's serde_json keep a float a float; adk-js's JSON.stringify does not.
  const floats = kind.family !== 'adk-js';
  const eventJson = kind.family === 'adk-rust' ? 'actions' : 'event_data';
  const { sessions: s, appStates: a, userStates: u, events: e } = layoutOf(kind);
  let fixture: FixtureStore<AdkSessionStore> | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  async function sql(statement: string, params: (string | number)[] = []) {
    const db = await openAgentDb(fixture!.locator);
    try {
      return await db.write(async (q) =>
        statement.startsWith('SELECT') ? q.all(statement, params) : (await q.run(statement, params), []),
      );
    } finally {
      await db.close();
    }
  }
  const text = (value: unknown) => String(value);
  const sessionBlob = async (sessionId: string) =>
    text((await sql(`SELECT "${s.state}" AS v FROM "${s.table}" WHERE "${s.id}" = ?`, [sessionId]))[0]?.v);
  const appBlob = async () => text((await sql(`SELECT "${a.state}" AS v FROM "${a.table}" WHERE "${a.appName}" = ?`, [APP]))[0]?.v);
  const userBlob = async (userId: string) =>
    text((await sql(`SELECT "${u.state}" AS v FROM "${u.table}" WHERE "${u.appName}" = ? AND "${u.userId}" = ?`, [APP, userId]))[0]?.v);
  /** `"key": value` as the store's text has it (json.dumps spaces; pydantic, adk-js and SQLite's json_patch none). */
  const pair = (key: string, value: string) => new RegExp(`"${key}": ?${value.replace('.', '\\.')}(?![0-9.eE])`);

  it('an append, an app state edit and a create: the written floats and those already stored', async () => {
    fixture = await openAdkFixture(kind);
    const { store } = fixture;
    // A float an agent stored before: json.dumps wrote it so.
    await sql(`UPDATE "${s.table}" SET "${s.state}" = ? WHERE "${s.id}" = ?`, ['{"f": 2.0, "nights": 3}', ref.sessionId]);

    await store.append(
      ref,
      { author: 'support', invocationId: 'inv-s', actions: { stateDelta: { g: 3, 'app:k': 4, 'user:h': 100, i: 5 } } },
      {
        spellings: new Map([
          ['g', '3.0'],
          ['app:k', '4.0'],
          ['user:h', '1e2'],
        ]),
      },
    );
    const session = await sessionBlob(ref.sessionId);
    const [event] = await sql(`SELECT "${eventJson}" AS v FROM "${e.table}" WHERE invocation_id = ?`, ['inv-s']);
    const data = text(event?.v);
    if (floats) {
      expect(session).toMatch(pair('f', '2.0'));
      expect(session).toMatch(pair('g', '3.0'));
      expect(await appBlob()).toMatch(pair('k', '4.0'));
      // json.loads("1e2") is the float 100.0, and json.dumps writes it so.
      expect(await userBlob('alice')).toMatch(pair('h', '100.0'));
      expect(data).toMatch(pair('g', '3.0'));
      expect(data).toMatch(pair('app:k', '4.0'));
    } else {
      expect(session).toMatch(pair('f', '2'));
      expect(session).toMatch(pair('g', '3'));
      expect(data).toMatch(pair('g', '3'));
    }
    expect(session).toMatch(pair('i', '5'));
    expect(data).toMatch(pair('i', '5'));

    await store.editState({
      scope: 'app',
      appName: APP,
      changes: { m: 9 },
      spellings: new Map([['m', '9.0']]),
      actor: 'ops',
      reason: 'floats',
    });
    const app = await appBlob();
    expect(app).toMatch(pair('m', floats ? '9.0' : '9'));
    expect(app).toMatch(pair('k', floats ? '4.0' : '4'));
    // Only the spelling changes: 9.0 becomes the int 9 for a Python agent.
    await store.editState({ scope: 'app', appName: APP, changes: { m: 9 }, actor: 'ops', reason: 'an int' });
    expect(await appBlob()).toMatch(pair('m', '9'));

    await store.createSession({
      appName: APP,
      userId: 'bob',
      sessionId: 'spelled',
      state: { n: 7, 'user:o': 8 },
      spellings: new Map([
        ['n', '7.0'],
        ['user:o', '8.0'],
      ]),
    });
    expect(await sessionBlob('spelled')).toMatch(pair('n', floats ? '7.0' : '7'));
    expect(await userBlob('bob')).toMatch(pair('o', floats ? '8.0' : '8'));
    // What the store reads back: the same values, and the text for the previews.
    expect((await store.getSessionTiers({ ...ref, userId: 'bob', sessionId: 'spelled' }))?.session).toEqual([
      expect.objectContaining({ key: 'n', value: 7, ...(floats ? { written: '7.0' } : {}) }),
    ]);
  });

  it('time travel: a value as of an earlier event is spelled as that event wrote it, a key no event set as its blob is', async () => {
    fixture = await openAdkFixture(kind);
    const { store } = fixture;
    await sql(`UPDATE "${s.table}" SET "${s.state}" = ? WHERE "${s.id}" = ?`, ['{"f": 2.0, "nights": 3}', ref.sessionId]);
    const event = (stateDelta: Record<string, number>) => ({ author: 'support', actions: { stateDelta } });
    await store.append(ref, event({ g: 3, 'app:k': 4 }), {
      spellings: new Map([
        ['g', '3.0'],
        ['app:k', '4.0'],
      ]),
    });
    await store.append(ref, event({ g: 5, 'app:k': 6 }));
    const events = await store.listEvents(ref);
    const seq = events.items.find((item) => item.event.actions.stateDelta.g === 3)?.seq ?? -1;

    const tiers = await store.getStateAsOf(ref, seq);
    const written = (entries: { key: string; written?: string }[] | undefined) =>
      Object.fromEntries((entries ?? []).flatMap((entry) => (entry.written === undefined ? [] : [[entry.key, entry.written]])));
    expect(written(tiers?.session)).toEqual(floats ? { f: '2.0', g: '3.0' } : {});
    expect(written(tiers?.app)).toEqual(floats ? { k: '4.0' } : {});
    expect(tiers?.session).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'g', value: 3 })]));
  });

  it('an import: the state and the event deltas of the file', async () => {
    fixture = await openAdkFixture(kind);
    const file =
      '{"id": "imported", "user_id": "carol", "state": {"a": 2.0, "b": 3.0}, "events": [{"id": "ev-1", "invocation_id": "inv-i", "author": "agent", "timestamp": 1750000000.5, "actions": {"state_delta": {"b": 3.0, "user:c": 5.0}}}]}';
    await importSessionFile(fixture.store, file, { appName: APP }, { dryRun: false, applySharedState: true, actor: 'ops', reason: 'r' });
    const session = await sessionBlob('imported');
    expect(session).toMatch(pair('a', floats ? '2.0' : '2'));
    expect(session).toMatch(pair('b', floats ? '3.0' : '3'));
    expect(await userBlob('carol')).toMatch(pair('c', floats ? '5.0' : '5'));
    const [event] = await sql(`SELECT "${eventJson}" AS v FROM "${e.table}" WHERE invocation_id = ?`, ['inv-i']);
    expect(text(event?.v)).toMatch(pair('user:c', floats ? '5.0' : '5'));
  });

  it('a fork: the session tier as of the event and the copied events’ deltas, as the source spells them', async () => {
    fixture = await openAdkFixture(kind);
    const { store } = fixture;
    await sql(`UPDATE "${s.table}" SET "${s.state}" = ? WHERE "${s.id}" = ?`, ['{"f": 2.0, "nights": 3}', ref.sessionId]);
    await store.append(
      ref,
      { author: 'support', invocationId: 'inv-f', actions: { stateDelta: { g: 3 } } },
      { spellings: new Map([['g', '3.0']]) },
    );
    const events = await store.listEvents(ref);
    const last = events.items.at(-1)?.seq ?? -1;
    const forked = await forkCommand(store, 'ops', { ...ref, atSeq: last, forkId: 'forked', reason: 'r' });
    expect(forked).toMatchObject({ ok: true });

    const session = await sessionBlob('forked');
    expect(session).toMatch(pair('f', floats ? '2.0' : '2'));
    expect(session).toMatch(pair('g', floats ? '3.0' : '3'));
    const copied = await sql(`SELECT "${eventJson}" AS v FROM "${e.table}" WHERE "${e.sessionId}" = ? AND invocation_id = ?`, [
      'forked',
      'inv-f',
    ]);
    expect(copied).toHaveLength(1);
    expect(text(copied[0]?.v)).toMatch(pair('g', floats ? '3.0' : '3'));
  });
});
