// The server actions' logic (parse → service → result) against real databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testProviders, type TestDatabase } from '../testing/databases';
import { appendEventCommand } from './append-event';
import { editStateCommand } from './edit-state';

const providers = await testProviders();

describe.each(providers)('dashboard commands on %s', (provider) => {
  let database: TestDatabase;
  const app = `cmd-${provider}`;
  const ref = { appName: app, userId: 'u', sessionId: 's' };

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    await database.service.createSession({ ...ref, state: { 'user:plan': 'free' } });
  });
  afterAll(async () => {
    await database?.drop();
  });

  async function eventCount(): Promise<number> {
    return (await database.service.getSessionSummary(ref))?.eventCount ?? -1;
  }

  describe('append an event', () => {
    it('appends text, a function call and response, and a delta', async () => {
      const before = await database.service.getSessionSummary(ref);
      const result = await appendEventCommand(database.service, {
        ...ref,
        revision: before?.revision ?? 0,
        text: 'hello',
        functionCall: { name: 'lookup', json: '{"q": "tea"}' },
        functionResponse: { name: 'lookup', json: '{"hits": 3}' },
        stateDelta: '{"topic": "tea", "user:plan": "pro", "temp:x": 1}',
      });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.data.revision).toBe((before?.revision ?? 0) + 1);
      expect(result.data.event.author).toBe('user');
      expect(result.data.event.invocationId).toMatch(/^e-/);
      expect(result.data.event.content?.parts?.map((p) => Object.keys(p)[0])).toEqual(['text', 'functionCall', 'functionResponse']);
      const session = await database.service.getSession(ref);
      expect(session?.state).toEqual({ topic: 'tea', 'user:plan': 'pro' });
    });

    it('reports each invalid field and writes nothing', async () => {
      const before = await eventCount();
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ stateDelta: '{"a": 1,\n  }' }, 'stateDelta', /^Malformed JSON at line 2, column 3/],
        [{ stateDelta: '[1, 2]' }, 'stateDelta', /expected a JSON object, got an array/],
        [{ stateDelta: '{"": 1}' }, 'stateDelta', /keys must not be empty/],
        [{ stateDelta: JSON.stringify({ big: 'x'.repeat(2 * 1024 * 1024) }) }, 'stateDelta', /too long|over the/],
        [{ functionCall: { name: 'f', json: '"nope"' } }, 'functionCall.json', /must be a JSON object/],
        [{ functionCall: { name: '', json: '{}' } }, 'functionCall.name', /function name/],
        [{ author: '   ' }, 'author', /must not be empty/],
        [{ sessionId: '' }, 'sessionId', /must not be empty/],
        [{ sessionId: 'x'.repeat(129) }, 'sessionId', /at most 128/],
        [{ revision: 'one' }, 'revision', /must be a number/],
      ];
      for (const [override, field, message] of cases) {
        const result = await appendEventCommand(database.service, { ...ref, revision: 0, ...override });
        expect(result.ok, field).toBe(false);
        if (result.ok) continue;
        expect(result.code).toBe('INVALID_INPUT');
        expect(result.fieldErrors?.[field], JSON.stringify(result.fieldErrors)).toMatch(message);
      }
      expect(await eventCount()).toBe(before);
    });

    it('refuses a page that is behind storage with a conflict, not an overwrite', async () => {
      const before = await database.service.getSessionSummary(ref);
      const stale = await appendEventCommand(database.service, { ...ref, revision: (before?.revision ?? 1) - 1, text: 'late' });
      expect(stale).toMatchObject({ ok: false, code: 'STALE_SESSION' });
      expect(await eventCount()).toBe(before?.eventCount);
    });

    it('reports an unknown session', async () => {
      const result = await appendEventCommand(database.service, { ...ref, sessionId: 'missing', revision: 0 });
      expect(result).toMatchObject({ ok: false, code: 'NOT_FOUND', message: 'Session missing not found.' });
    });
  });

  describe('edit state', () => {
    it('edits user state with actor and reason', async () => {
      const result = await editStateCommand(database.service, 'support@example.com', {
        scope: 'user',
        appName: app,
        userId: 'u',
        changes: [{ key: 'plan', value: '"enterprise"' }, { key: 'note', value: '{"vip": true}' }],
        reason: 'ticket 7',
      });
      expect(result.ok).toBe(true);
      const history = await database.service.getKeyHistory({ appName: app, scope: 'user', userId: 'u', key: 'plan' });
      expect(history.items[0]).toMatchObject({ newValue: 'enterprise', actor: 'support@example.com', reason: 'ticket 7' });
    });

    it('removes keys and edits app state', async () => {
      expect(
        (await editStateCommand(database.service, 'ops', { scope: 'user', appName: app, userId: 'u', changes: [{ key: 'note', remove: true }], reason: 'done' })).ok,
      ).toBe(true);
      const app1 = await editStateCommand(database.service, 'ops', { scope: 'app', appName: app, changes: [{ key: 'tone', value: '"warm"' }], reason: 'launch' });
      expect(app1).toMatchObject({ ok: true, data: [{ key: 'tone', value: 'warm' }] });
      expect((await database.service.getUserState(app, 'u')).map((e) => e.key)).toEqual(['plan']);
    });

    it('rejects bad edits field by field and changes nothing', async () => {
      const before = await database.service.getUserHistory(app, 'u');
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ reason: '  ' }, 'reason', /is required/],
        [{ changes: [] }, 'changes', /at least one change/],
        [{ changes: [{ key: '', value: '1' }] }, 'changes.0.key', /must not be empty/],
        [{ changes: [{ key: 'k', value: '{oops' }] }, 'changes.0.value', /Malformed JSON at line 1/],
        [{ changes: [{ key: 'k', value: '1' }, { key: 'k', value: '2' }] }, 'changes.1.key', /appears twice/],
        [{ userId: undefined }, 'userId', /required to edit user state/],
        [{ scope: 'session' }, 'scope', /must be app or user/],
      ];
      for (const [override, field, message] of cases) {
        const result = await editStateCommand(database.service, 'ops', {
          scope: 'user',
          appName: app,
          userId: 'u',
          changes: [{ key: 'plan', value: '"x"' }],
          reason: 'r',
          ...override,
        });
        expect(result.ok, field).toBe(false);
        if (!result.ok) expect(result.fieldErrors?.[field], JSON.stringify(result.fieldErrors)).toMatch(message);
      }
      expect((await database.service.getUserHistory(app, 'u')).total).toBe(before.total);
    });
  });
});
