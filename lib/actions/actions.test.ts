// The server actions as the dashboard calls them, against real databases:
// validation, the service, the actor, and what they revalidate. Next's cache
// needs a running server, so revalidatePath is recorded instead (the e2e specs
// cover the real re-render).
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Role } from '../auth/roles';
import { setServicesForTests } from '../services';
import { openDatabase } from '../db';
import { createNativeSessionStore } from '../stores/native';
import { testProviders } from '../testing/databases';
import { useTestDatabase } from '../testing/use-test-database';
import { appendEvent } from './events';
import { editState } from './state';

const revalidated = vi.hoisted(() => [] as [string, string | undefined][]);
vi.mock('next/cache', () => ({
  revalidatePath: (path: string, type?: string) => {
    revalidated.push([path, type]);
  },
}));

// Who is signed in comes from the request's cookies, which only a running
// server has; the role check itself is lib/auth's (hasRole, forbidden).
const signedIn = vi.hoisted(() => ({ role: 'admin' as Role | null }));
vi.mock('../current-principal', async () => {
  const { hasRole } = await import('../auth/roles');
  const { forbidden, unauthenticated } = await import('../auth/errors');
  return {
    requireRole: async (role: Role) => {
      if (signedIn.role === null) throw unauthenticated();
      if (!hasRole(signedIn.role, role)) throw forbidden(role);
      return { name: 'someone', role: signedIn.role, via: 'session' };
    },
  };
});

const providers = await testProviders();

describe.each(providers)('server actions on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });
  const app = `act ${provider} ü`;
  const ref = { appName: app, userId: 'u 1', sessionId: 's 1' };
  const encoded = `/apps/${encodeURIComponent(app)}`;

  beforeAll(async () => {
    await database.service.createSession({ ...ref, state: { 'user:plan': 'free' } });
  });
  afterEach(() => {
    revalidated.length = 0;
    signedIn.role = 'admin';
  });

  const revision = async () => (await database.service.getSessionSummary(ref))?.revision ?? -1;

  describe('appendEvent', () => {
    it('appends, returns the next revision and revalidates the session page', async () => {
      const before = await revision();
      const result = await appendEvent({ ...ref, revision: before, text: 'hi', stateDelta: '{"topic": "tea"}' });
      expect(result, JSON.stringify(result)).toMatchObject({ ok: true, data: { revision: before + 1, event: { author: 'user' } } });
      expect(revalidated).toEqual([[`${encoded}/users/u%201/sessions/s%201`, undefined]]);
    });

    it('names the signed-in account in the history of the state the event changes, keeping its author', async () => {
      const result = await appendEvent({ ...ref, revision: await revision(), author: 'user', stateDelta: '{"mood": "calm"}' });
      expect(result).toMatchObject({ ok: true, data: { event: { author: 'user' } } });
      const [change] = (
        await database.service.getKeyHistory({ appName: app, scope: 'session', userId: 'u 1', sessionId: 's 1', key: 'mood' })
      ).items;
      expect(change).toMatchObject({ actor: 'someone', newValue: 'calm' });
    });

    it('revalidates every page of the user, or of the app, when shared keys change', async () => {
      expect((await appendEvent({ ...ref, revision: await revision(), stateDelta: '{"user:plan": "pro"}' })).ok).toBe(true);
      expect((await appendEvent({ ...ref, revision: await revision(), stateDelta: '{"app:tone": "warm", "user:x": 1}' })).ok).toBe(true);
      expect(revalidated).toEqual([
        [`${encoded}/users/u%201`, 'layout'],
        [encoded, 'layout'],
      ]);
    });

    it('returns validation errors as values and writes nothing', async () => {
      const before = await revision();
      const result = await appendEvent({ ...ref, revision: before, stateDelta: '{\n  "a": 1,\n}' });
      expect(result).toEqual({
        ok: false,
        code: 'INVALID_INPUT',
        message: 'Some fields need attention.',
        fieldErrors: { stateDelta: `Malformed JSON at line 3, column 1: expected a double-quoted property name, got character "}"` },
      });
      expect(await revision()).toBe(before);
      expect(revalidated).toEqual([]);
    });

    it("refuses a stale page with ADK's text", async () => {
      const result = await appendEvent({ ...ref, revision: (await revision()) - 1, text: 'late' });
      expect(result).toEqual({
        ok: false,
        code: 'STALE_SESSION',
        message: 'The session has been modified in storage since it was loaded. Please reload the session before appending more events.',
      });
      expect(revalidated).toEqual([]);
    });

    it('reports an unknown session', async () => {
      expect(await appendEvent({ ...ref, sessionId: 'nope', revision: 0, text: 'x' })).toMatchObject({
        ok: false,
        code: 'NOT_FOUND',
        message: 'Session nope not found.',
      });
    });

    it('accepts anything a client can send without throwing', async () => {
      for (const input of [null, 'text', 42, [], { ...ref, revision: Number.NaN }] as unknown[]) {
        const result = await appendEvent(input as Parameters<typeof appendEvent>[0]);
        expect(result).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
      }
    });
  });

  describe('editState', () => {
    it('records the signed-in account as the actor, with the reason, and revalidates the user pages', async () => {
      const result = await editState({
        scope: 'user',
        appName: app,
        userId: 'u 1',
        changes: [{ key: 'plan', value: '"enterprise"' }],
        reason: 'ticket 42',
      });
      expect(result.ok).toBe(true);
      const [latest] = (await database.service.getKeyHistory({ appName: app, scope: 'user', userId: 'u 1', key: 'plan' })).items;
      expect(latest).toMatchObject({ actor: 'someone', reason: 'ticket 42', newValue: 'enterprise' });
      expect(revalidated).toEqual([[`${encoded}/users/u%201`, 'layout']]);
    });

    it('edits app state and revalidates every page of the app', async () => {
      const result = await editState({ scope: 'app', appName: app, changes: [{ key: 'banner', value: 'null' }], reason: 'ops' });
      expect(result).toMatchObject({ ok: true, data: expect.arrayContaining([expect.objectContaining({ key: 'banner', value: null })]) });
      expect(revalidated).toEqual([[encoded, 'layout']]);
    });

    it('returns each failure as a value and writes nothing', async () => {
      const before = (await database.service.getUserHistory(app, 'u 1')).total;
      const missingReason = await editState({
        scope: 'user',
        appName: app,
        userId: 'u 1',
        changes: [{ key: 'plan', value: '1' }],
        reason: '',
      });
      expect(missingReason).toMatchObject({
        ok: false,
        code: 'INVALID_INPUT',
        fieldErrors: { reason: 'is required: say why you are changing this state' },
      });
      const conflict = await editState({
        scope: 'user',
        appName: app,
        userId: 'u 1',
        changes: [{ key: 'plan', value: '1', seen: { present: true, value: 'free' } }],
        reason: 'r',
      });
      expect(conflict).toMatchObject({ ok: false, code: 'CONFLICT' });
      expect((await database.service.getUserHistory(app, 'u 1')).total).toBe(before);
      // Only the conflict re-renders the page: it was showing an old value.
      expect(revalidated).toEqual([[`${encoded}/users/u%201`, 'layout']]);
    });
  });

  describe('roles', () => {
    it('lets support append and edit user state, but only admins edit app state', async () => {
      signedIn.role = 'support';
      expect((await appendEvent({ ...ref, revision: await revision(), text: 'from support' })).ok).toBe(true);
      expect((await editState({ scope: 'user', appName: app, userId: 'u 1', changes: [{ key: 'k', value: '1' }], reason: 'r' })).ok).toBe(
        true,
      );
      const before = await database.service.getAppState(app);
      expect(await editState({ scope: 'app', appName: app, changes: [{ key: 'k', value: '1' }], reason: 'r' })).toEqual({
        ok: false,
        code: 'FORBIDDEN',
        message: 'Forbidden: this needs the admin role.',
      });
      expect(await database.service.getAppState(app)).toEqual(before);
    });

    it('lets only admins change app state through an event, as through an edit', async () => {
      signedIn.role = 'support';
      const before = await database.service.getSessionSummary(ref);
      const appState = await database.service.getAppState(app);
      const event = { ...ref, revision: before?.revision ?? 0, stateDelta: '{"app:escalation_email": "x@evil.example"}' };
      expect(await appendEvent(event)).toMatchObject({
        ok: false,
        code: 'FORBIDDEN',
        message: 'Forbidden: changing app: keys (app state) needs the admin role.',
      });
      expect(await database.service.getSessionSummary(ref)).toEqual(before);
      expect(await database.service.getAppState(app)).toEqual(appState);
      signedIn.role = 'admin';
      expect(await appendEvent(event)).toMatchObject({ ok: true });
    });

    it('refuses viewers and anonymous callers, writing nothing', async () => {
      const before = await database.service.getSessionSummary(ref);
      const history = (await database.service.getUserHistory(app, 'u 1')).total;
      for (const role of ['viewer', null] as const) {
        signedIn.role = role;
        const code = role === null ? 'UNAUTHENTICATED' : 'FORBIDDEN';
        expect(await appendEvent({ ...ref, revision: before?.revision ?? 0, text: 'x' })).toMatchObject({ ok: false, code });
        expect(
          await editState({ scope: 'user', appName: app, userId: 'u 1', changes: [{ key: 'k', value: '2' }], reason: 'r' }),
        ).toMatchObject({
          ok: false,
          code,
        });
      }
      expect(await database.service.getSessionSummary(ref)).toEqual(before);
      expect((await database.service.getUserHistory(app, 'u 1')).total).toBe(history);
      expect(revalidated).toEqual([]);
    });
  });
});

describe('server actions without a database', () => {
  it('report an unreachable database as a value', async () => {
    const db = await openDatabase('postgresql://statehouse@127.0.0.1:1/none');
    setServicesForTests({ store: createNativeSessionStore(db.client, db.provider) });
    try {
      const append = await appendEvent({ appName: 'a', userId: 'u', sessionId: 's', revision: 0, text: 'x' });
      expect(append).toMatchObject({ ok: false, code: 'UNAVAILABLE' });
      const edit = await editState({ scope: 'app', appName: 'a', changes: [{ key: 'k', value: '1' }], reason: 'r' });
      expect(edit).toMatchObject({ ok: false, code: 'UNAVAILABLE', message: expect.stringMatching(/nothing was saved/) });
    } finally {
      setServicesForTests({});
      await db.close();
    }
  });
});
