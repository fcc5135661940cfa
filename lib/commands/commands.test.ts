// The server actions' logic (parse → service → result) against real databases.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../auth/roles';
import { testProviders } from '../testing/databases';
import { useTestDatabase } from '../testing/use-test-database';
import { appendEventCommand } from './append-event';
import { editStateCommand } from './edit-state';

const providers = await testProviders();

describe.each(providers)('dashboard commands on %s', (provider) => {
  const database = useTestDatabase(provider);
  const app = `cmd-${provider}`;
  const ref = { appName: app, userId: 'u', sessionId: 's' };

  beforeAll(async () => {
    await database.service.createSession({ ...ref, state: { 'user:plan': 'free' } });
  });

  /** As an admin, whom no key is refused; the role rule has its own tests. */
  const appendAs = (raw: unknown, role: Role = 'admin') => appendEventCommand(database.service, raw, { role });

  async function eventCount(): Promise<number> {
    return (await database.service.getSessionSummary(ref))?.eventCount ?? -1;
  }

  describe('append an event', () => {
    it('appends text, a function call and response, and a delta', async () => {
      const before = await database.service.getSessionSummary(ref);
      const result = await appendAs({
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
        [{ stateDelta: JSON.stringify({ big: 'x'.repeat(2 * 1024 * 1024) }) }, 'stateDelta', /longer than|over the/],
        [{ functionCall: { name: 'f', json: '"nope"' } }, 'functionCall.json', /expected a JSON object, got a string/],
        [{ functionCall: { name: '', json: '{}' } }, 'functionCall.name', /function name/],
        [{ author: '   ' }, 'author', /must not be empty/],
        [{ sessionId: '' }, 'sessionId', /must not be empty/],
        [{ sessionId: 'x'.repeat(129) }, 'sessionId', /at most 128/],
        [{ revision: 'one' }, 'revision', /must be a number/],
        [{ revision: 1.5 }, 'revision', /must be an integer/],
        [{ stateDelta: '{"user:": 1}' }, 'stateDelta', /names no key in the user tier: keys must not be empty/],
        [{ stateDelta: '"text"' }, 'stateDelta', /expected a JSON object, got a string/],
        [{ stateDelta: '{"a": }' }, 'stateDelta', /^Malformed JSON at line 1, column 7: unexpected character "}", expected a JSON value$/],
        [{ stateDelta: `{"${'k'.repeat(300)}": 1}` }, 'stateDelta', /longer than 256 characters/],
        [{ stateDelta: '{"deep": ' + '['.repeat(70) + ']'.repeat(70) + '}' }, 'stateDelta', /nested deeper than 64 levels/],
        [{ text: 'x'.repeat(2 * 1024 * 1024 + 1) }, 'text', /over the 2 MiB limit/],
        [{ functionResponse: { name: 'f', json: '[1]' } }, 'functionResponse.json', /expected a JSON object, got an array/],
        [{ invocationId: 'i'.repeat(129) }, 'invocationId', /at most 128/],
        [{ stateDelta: '' }, 'form', /needs text, a function call or response, or a state delta/],
        [{ stateDelta: '{}', text: '   ' }, 'form', /needs text/],
        [
          { stateDelta: '{"n": 12345678901234567890}' },
          'stateDelta',
          /^The number 12345678901234567890 at line 1, column 7 is an integer too large to store exactly/,
        ],
        [{ stateDelta: '{"s": "\\ud800"}' }, 'stateDelta', /^value\.s: not valid Unicode/],
        [{ author: 'bot\u0007' }, 'author', /control characters/],
        [{ author: 'evil\u202e' }, 'author', /bidirectional/],
      ];
      for (const [override, field, message] of cases) {
        const result = await appendAs({ ...ref, revision: 0, ...override });
        expect(result.ok, field).toBe(false);
        if (result.ok) continue;
        expect(result.code).toBe('INVALID_INPUT');
        expect(result.fieldErrors?.[field], JSON.stringify(result.fieldErrors)).toMatch(message);
      }
      expect(await eventCount()).toBe(before);
    });

    it('ties a response to the call of the same event, keeps given ids and picks the role as ADK does', async () => {
      const before = await database.service.getSessionSummary(ref);
      const result = await appendAs({
        ...ref,
        revision: before?.revision ?? 0,
        author: 'helper',
        invocationId: ' inv-7 ',
        functionCall: { name: 'lookup', json: '' },
        functionResponse: { name: 'lookup', json: '{"__proto__": {"x": 1}}' },
      });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      const [call, response] = result.data.event.content?.parts ?? [];
      expect(result.data.event.invocationId).toBe('inv-7');
      expect(result.data.event.content?.role).toBe('model');
      expect(call?.functionCall).toMatchObject({ name: 'lookup', args: {} });
      expect(response?.functionResponse?.id).toBe(call?.functionCall?.id);
      expect(Object.keys(response?.functionResponse?.response ?? {})).toEqual(['__proto__']);

      const toolResponse = await appendAs({
        ...ref,
        revision: result.data.revision,
        author: 'helper',
        functionResponse: { id: 'call-1', name: 'lookup', json: '{}' },
      });
      expect(toolResponse).toMatchObject({
        ok: true,
        data: { event: { content: { role: 'user', parts: [{ functionResponse: { id: 'call-1' } }] } } },
      });
    });

    it('applies temp: keys to the invocation only and stores null as a value', async () => {
      const before = await database.service.getSessionSummary(ref);
      const result = await appendAs({
        ...ref,
        revision: before?.revision ?? 0,
        stateDelta: '{"temp:scratch": 1, "topic": null}',
      });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.data.event.actions.stateDelta).toEqual({ topic: null });
      const session = await database.service.getSession(ref);
      expect(session?.state).toMatchObject({ topic: null });
      expect(session?.state).not.toHaveProperty('temp:scratch');
    });

    it('refuses a page that is behind storage with a conflict, not an overwrite', async () => {
      const before = await database.service.getSessionSummary(ref);
      const stale = await appendAs({ ...ref, revision: (before?.revision ?? 1) - 1, text: 'late' });
      expect(stale).toMatchObject({ ok: false, code: 'STALE_SESSION' });
      expect(await eventCount()).toBe(before?.eventCount);
    });

    it('reports an unknown session', async () => {
      const result = await appendAs({ ...ref, sessionId: 'missing', revision: 0, text: 'hi' });
      expect(result).toMatchObject({ ok: false, code: 'NOT_FOUND', message: 'Session missing not found.' });
    });

    it('refuses app: keys below admin, as an app state edit would, and stores nothing', async () => {
      const before = await database.service.getSessionSummary(ref);
      const revision = before?.revision ?? 0;
      const refused = await appendAs({ ...ref, revision, stateDelta: '{"app:escalation_email": "x@evil.example", "b": 1}' }, 'support');
      expect(refused).toMatchObject({
        ok: false,
        code: 'FORBIDDEN',
        fieldErrors: { stateDelta: 'Forbidden: changing app: keys (app state) needs the admin role.' },
      });
      expect(await eventCount()).toBe(before?.eventCount);
      expect(await database.service.getAppState(app)).not.toContainEqual(expect.objectContaining({ key: 'escalation_email' }));
      expect(await appendAs({ ...ref, revision, stateDelta: '{"b": 2}' }, 'support')).toMatchObject({ ok: true });
    });
  });

  describe('edit state', () => {
    it('edits user state with actor and reason', async () => {
      const result = await editStateCommand(database.service, 'support@example.com', {
        scope: 'user',
        appName: app,
        userId: 'u',
        changes: [
          { key: 'plan', value: '"enterprise"' },
          { key: 'note', value: '{"vip": true}' },
        ],
        reason: 'ticket 7',
      });
      expect(result.ok).toBe(true);
      const history = await database.service.getKeyHistory({ appName: app, scope: 'user', userId: 'u', key: 'plan' });
      expect(history.items[0]).toMatchObject({ newValue: 'enterprise', actor: 'support@example.com', reason: 'ticket 7' });
    });

    it('removes keys and edits app state', async () => {
      expect(
        (
          await editStateCommand(database.service, 'ops', {
            scope: 'user',
            appName: app,
            userId: 'u',
            changes: [{ key: 'note', remove: true }],
            reason: 'done',
          })
        ).ok,
      ).toBe(true);
      const app1 = await editStateCommand(database.service, 'ops', {
        scope: 'app',
        appName: app,
        changes: [{ key: 'tone', value: '"warm"' }],
        reason: 'launch',
      });
      expect(app1).toMatchObject({ ok: true, data: [{ key: 'tone', value: 'warm' }] });
      expect((await database.service.getUserState(app, 'u')).map((e) => e.key)).toEqual(['plan']);
    });

    it('refuses an edit whose key changed since the person saw it, and saves nothing', async () => {
      await editStateCommand(database.service, 'ops', {
        scope: 'user',
        appName: app,
        userId: 'u',
        changes: [{ key: 'plan', value: '"team"' }],
        reason: 'a',
      });
      const before = await database.service.getUserHistory(app, 'u');
      const stale = await editStateCommand(database.service, 'support', {
        scope: 'user',
        appName: app,
        userId: 'u',
        changes: [
          { key: 'extra', value: '1', seen: { present: false } },
          { key: 'plan', value: '"free"', seen: { present: true, value: 'enterprise' } },
        ],
        reason: 'b',
      });
      expect(stale).toMatchObject({ ok: false, code: 'CONFLICT' });
      if (stale.ok) return;
      expect(stale.fieldErrors).toEqual({ 'changes.1.key': 'changed since you opened it: it is now "team" by ops' });
      expect((await database.service.getUserHistory(app, 'u')).total).toBe(before.total);

      const removedMeanwhile = await editStateCommand(database.service, 'support', {
        scope: 'user',
        appName: app,
        userId: 'u',
        changes: [{ key: 'gone', remove: true, seen: { present: true, value: 1 } }],
        reason: 'c',
      });
      expect(removedMeanwhile).toMatchObject({
        ok: false,
        code: 'CONFLICT',
        fieldErrors: { 'changes.0.key': 'changed since you opened it: it has been removed' },
      });

      const current = await editStateCommand(database.service, 'support', {
        scope: 'user',
        appName: app,
        userId: 'u',
        changes: [{ key: 'plan', value: '"free"', seen: { present: true, value: 'team' } }],
        reason: 'b',
      });
      expect(current.ok).toBe(true);
      const [latest, previous] = (await database.service.getKeyHistory({ appName: app, scope: 'user', userId: 'u', key: 'plan' })).items;
      expect(latest).toMatchObject({ oldValue: 'team', newValue: 'free', actor: 'support', reason: 'b' });
      expect(previous).toMatchObject({ newValue: 'team', actor: 'ops' });
    });

    it('adds a key typed with its tier’s prefix or spaces under the key meant, and refuses other tiers’ prefixes', async () => {
      const user = { scope: 'user', appName: app, userId: 'prefixes', reason: 'r' } as const;
      const added = await editStateCommand(database.service, 'ops', {
        ...user,
        changes: [
          { key: 'user:nick', value: '"N"' },
          { key: '  city ', value: '"Oslo"' },
        ],
      });
      expect(added).toMatchObject({ ok: true });
      expect((await database.service.getUserState(app, 'prefixes')).map((e) => e.key)).toEqual(['city', 'nick']);
      const refused: [string, RegExp][] = [
        ['temp:scratch', /never stored/],
        ['app:leak', /app state, shared by every user/],
        ['user:user:twice', /typed twice/],
      ];
      for (const [key, message] of refused) {
        const result = await editStateCommand(database.service, 'ops', { ...user, changes: [{ key, value: '1' }] });
        expect(result.ok, key).toBe(false);
        if (!result.ok) expect(result.fieldErrors?.['changes.0.key']).toMatch(message);
      }
      const appEdit = { scope: 'app', appName: app, reason: 'r' } as const;
      expect(await editStateCommand(database.service, 'ops', { ...appEdit, changes: [{ key: 'app:tone2', value: '1' }] })).toMatchObject({
        ok: true,
      });
      expect((await database.service.getAppState(app)).map((e) => e.key)).toContain('tone2');
      const userInApp = await editStateCommand(database.service, 'ops', { ...appEdit, changes: [{ key: 'user:plan', value: '1' }] });
      expect(userInApp).toMatchObject({ ok: false, fieldErrors: { 'changes.0.key': expect.stringMatching(/belong to one user/) } });
      expect((await database.service.getUserState(app, 'prefixes')).map((e) => e.key)).toEqual(['city', 'nick']);
    });

    it('still edits and removes a key stored with a prefix in its name', async () => {
      await database.service.editState({
        scope: 'user',
        appName: app,
        userId: 'legacy',
        changes: { 'app:odd': 1 },
        actor: 'api',
        reason: 'r',
      });
      const removed = await editStateCommand(database.service, 'ops', {
        scope: 'user',
        appName: app,
        userId: 'legacy',
        changes: [{ key: 'app:odd', remove: true }],
        reason: 'r',
      });
      expect(removed).toMatchObject({ ok: true, data: [] });
    });

    it('never rewrites events', async () => {
      const events = await database.service.listEvents(ref);
      await editStateCommand(database.service, 'ops', {
        scope: 'user',
        appName: app,
        userId: 'u',
        changes: [{ key: 'plan', value: '"x"' }],
        reason: 'r',
      });
      expect(await database.service.listEvents(ref)).toEqual(events);
    });

    it('rejects bad edits field by field and changes nothing', async () => {
      const before = await database.service.getUserHistory(app, 'u');
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ reason: '  ' }, 'reason', /is required/],
        [{ changes: [] }, 'changes', /at least one change/],
        [{ changes: [{ key: '', value: '1' }] }, 'changes.0.key', /must not be empty/],
        [{ changes: [{ key: 'k', value: '{oops' }] }, 'changes.0.value', /Malformed JSON at line 1/],
        [
          {
            changes: [
              { key: 'k', value: '1' },
              { key: 'k', value: '2' },
            ],
          },
          'changes.1.key',
          /appears twice/,
        ],
        [{ userId: undefined }, 'userId', /required to edit user state/],
        [{ scope: 'session' }, 'scope', /must be app or user/],
        [{ changes: [{ key: 'k', value: '' }] }, 'changes.0.value', /Empty input: expected JSON/],
        [{ changes: [{ key: 'k'.repeat(257), value: '1' }] }, 'changes.0.key', /longer than 256 characters/],
        [{ changes: [{ key: 'k', value: JSON.stringify('x'.repeat(2 * 1024 * 1024)) }] }, 'changes.0.value', /longer than|over the/],
        [{ changes: [{ key: 'k', value: '['.repeat(70) + ']'.repeat(70) }] }, 'changes.0.value', /nested deeper than 64/],
        [{ reason: 'r'.repeat(501) }, 'reason', /at most 500/],
        [{ appName: '' }, 'appName', /must not be empty/],
        [{ changes: 'plan' }, 'changes', /must be a list of changes/],
        [{ changes: [{ key: 'k', value: '1e400' }] }, 'changes.0.value', /out of range/],
        [{ reason: 'why\u0000' }, 'reason', /control characters/],
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
