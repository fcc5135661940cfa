// The session operations' API on SQLite and PostgreSQL: fork, rewind (as the
// upstream pull requests shape it), export and import (round trip, preview,
// all or nothing), retention (admin only, dry run first), titles and labels.
// Refused requests change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore } from '@/lib/auth/store';
import { appendEvent } from '@/lib/session-service/append';
import type { NewEvent } from '@/lib/session-service/types';
import { setServicesForTests } from '@/lib/services';
import { testProviders } from '@/lib/testing/databases';
import { uniqueName } from '@/lib/testing/factories';
import { call, databaseDump, detailOf } from '@/lib/testing/http';
import { useTestDatabase } from '@/lib/testing/use-test-database';
import * as appExport from './apps/[app]/export/route';
import * as appImport from './apps/[app]/import/route';
import * as appPrune from './apps/[app]/prune/route';
import * as operations from './apps/[app]/operations/route';
import * as userExport from './apps/[app]/users/[user]/export/route';
import * as userImport from './apps/[app]/users/[user]/import/route';
import * as exportRoute from './apps/[app]/users/[user]/sessions/[id]/export/route';
import * as fork from './apps/[app]/users/[user]/sessions/[id]/fork/route';
import * as meta from './apps/[app]/users/[user]/sessions/[id]/meta/route';
import * as prune from './apps/[app]/users/[user]/sessions/[id]/prune/route';
import * as rewind from './apps/[app]/users/[user]/sessions/[id]/rewind/route';

const providers = await testProviders();

const step = (invocationId: string, stateDelta: Record<string, unknown>): NewEvent =>
  ({ author: 'agent', invocationId, content: { role: 'model', parts: [{ text: invocationId }] }, actions: { stateDelta } }) as NewEvent;

describe.each(providers)('session operations API on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });

  async function seed(app = uniqueName('app'), user = 'u', id = 's') {
    const session = await database.service.createSession({
      appName: app,
      userId: user,
      sessionId: id,
      state: { topic: 'tea', 'user:name': 'Ada' },
    });
    await appendEvent(database.service, session, step('i1', { topic: 'coffee', n: 1 }));
    await appendEvent(database.service, session, step('i2', { n: 2, 'user:lang': 'en' }));
    await appendEvent(database.service, session, step('i3', { n: 3, done: true }));
    return { app, user, id, params: { app, user, id } };
  }

  describe('fork', () => {
    it('answers the new session with events 1..N and the state as of N', async () => {
      const { params } = await seed();
      const result = await call(fork.POST, 'POST', { params, body: { atSeq: 2, sessionId: 'f' } });
      expect(result.status).toBe(200);
      expect(result.json).toMatchObject({ id: 'f', state: { topic: 'coffee', n: 2, 'user:name': 'Ada', 'user:lang': 'en' } });
      expect((result.json as { events: unknown[] }).events).toHaveLength(2);
      const links = await call(meta.GET, 'GET', { params });
      expect(links.json).toMatchObject({ forks: [{ sessionId: 'f', atSeq: 2 }], forkedFrom: null });
    });

    it('refuses past the end, a bad body, an unknown session and a taken id, changing nothing', async () => {
      const { params } = await seed();
      const before = await databaseDump(database);
      const past = await call(fork.POST, 'POST', { params, body: { atSeq: 4 } });
      expect([past.status, detailOf(past)]).toEqual([400, 'atSeq: session s has 3 events; there is no event #4.']);
      expect((await call(fork.POST, 'POST', { params, body: { atSeq: 'two' } })).status).toBe(400);
      expect((await call(fork.POST, 'POST', { params, body: { atSeq: 1, sessionId: 'a/b\u0000' } })).status).toBe(400);
      expect((await call(fork.POST, 'POST', { params: { ...params, id: 'nope' }, body: { atSeq: 1 } })).status).toBe(404);
      expect((await call(fork.POST, 'POST', { params, body: { atSeq: 1, sessionId: 's' } })).status).toBe(409);
      expect(await databaseDump(database)).toEqual(before);
    });
  });

  describe('rewind', () => {
    it('appends the rewind event and answers the rewound session; snake_case body too', async () => {
      const { params } = await seed();
      const result = await call(rewind.POST, 'POST', { params, body: { rewind_before_invocation_id: 'i2' } });
      expect(result.status).toBe(200);
      const session = result.json as { state: Record<string, unknown>; events: { author: string; actions: Record<string, unknown> }[] };
      expect(session.state).toMatchObject({ topic: 'coffee', n: 1, done: null, 'user:lang': 'en' });
      expect(session.events.at(-1)).toMatchObject({
        author: 'user',
        actions: { rewindBeforeInvocationId: 'i2', stateDelta: { n: 1, done: null } },
      });
    });

    it('answers 404 for an unknown invocation, 409 for a stale If-Match, 400 without an id; nothing changes', async () => {
      const { params } = await seed();
      const before = await databaseDump(database);
      const unknown = await call(rewind.POST, 'POST', { params, body: { rewindBeforeInvocationId: 'nope' } });
      expect([unknown.status, detailOf(unknown)]).toEqual([404, 'Invocation ID not found: nope']);
      const stale = await call(rewind.POST, 'POST', { params, body: { rewindBeforeInvocationId: 'i1' }, headers: { 'if-match': '1' } });
      expect(stale.status).toBe(409);
      expect((await call(rewind.POST, 'POST', { params, body: {} })).status).toBe(400);
      expect(
        (await call(rewind.POST, 'POST', { params: { ...params, id: 'nope' }, body: { rewindBeforeInvocationId: 'i1' } })).status,
      ).toBe(404);
      expect(await databaseDump(database)).toEqual(before);
    });
  });

  describe('export and import', () => {
    it('round-trips a session byte for byte: export, delete, import, export', async () => {
      const { params, app } = await seed();
      const exported = await call(exportRoute.GET, 'GET', { params });
      expect(exported.headers.get('content-disposition')).toBe('attachment; filename="s.session.json"');
      expect(JSON.parse(exported.text)).toMatchObject({ id: 's', appName: app, userId: 'u', lastUpdateTime: expect.any(Number) });
      await call(prune.POST, 'POST', { params, body: { target: 'session', dryRun: false, reason: 'round trip' } });

      // An event of it sets user:lang: refused unless the import writes it into the user's state, as the agent did.
      const refused = await call(userImport.POST, 'POST', { params: { app, user: 'u' }, body: exported.text });
      expect(refused.json).toMatchObject({
        counts: { create: 0, invalid: 1 },
        items: [{ status: 'invalid', sharedChanges: ['user:lang'] }],
      });
      const preview = await call(userImport.POST, 'POST', {
        params: { app, user: 'u' },
        query: 'applySharedState=true',
        body: exported.text,
      });
      expect(preview.json).toMatchObject({
        counts: { create: 1, exists: 0, invalid: 0 },
        written: false,
        items: [
          {
            line: 1,
            sessionId: 's',
            userId: 'u',
            events: 3,
            status: 'create',
            skippedSharedKeys: ['user:lang', 'user:name'],
            sharedChanges: ['user:lang'],
          },
        ],
      });
      const imported = await call(userImport.POST, 'POST', {
        params: { app, user: 'u' },
        query: 'dryRun=false&applySharedState=true',
        body: exported.text,
      });
      expect(imported.json).toMatchObject({ written: true });
      const again = await call(exportRoute.GET, 'GET', { params });
      expect(again.text).toBe(exported.text);
      // The imported session's timeline has its per-event history, as the original had.
      const tiers = await database.service.getStateAsOf({ appName: app, userId: 'u', sessionId: 's' }, 1);
      expect(tiers?.session.map((entry) => [entry.key, entry.value])).toEqual([
        ['n', 1],
        ['topic', 'coffee'],
      ]);
    });

    it('exports an app as JSON Lines and imports it into another app with new ids (modulo ids, the same)', async () => {
      const { app } = await seed();
      await seed(app, 'v', 't');
      const lines = await call(appExport.GET, 'GET', { params: { app } });
      expect(lines.text.trim().split('\n')).toHaveLength(2);
      const userLines = await call(userExport.GET, 'GET', { params: { app, user: 'v' } });
      expect(userLines.text.trim().split('\n')).toHaveLength(1);

      const other = uniqueName('copy');
      const result = await call(appImport.POST, 'POST', {
        params: { app: other },
        query: 'dryRun=false&newIds=true&applySharedState=true',
        body: lines.text,
      });
      expect(result.json).toMatchObject({ counts: { create: 2 }, written: true });
      const copied = await call(appExport.GET, 'GET', { params: { app: other } });
      const strip = (text: string) =>
        text
          .trim()
          .split('\n')
          .map((line) => {
            const { id: _id, appName: _app, state, ...rest } = JSON.parse(line) as Record<string, unknown>;
            const sessionKeys = Object.fromEntries(Object.entries(state as object).filter(([key]) => !key.includes(':')));
            return JSON.stringify({ ...rest, sessionKeys });
          })
          .sort();
      expect(strip(copied.text)).toEqual(strip(lines.text));
    });

    it('previews what exists and what is invalid, and then writes nothing at all', async () => {
      const { app, params } = await seed();
      const exported = (await call(exportRoute.GET, 'GET', { params })).text;
      const fresh = JSON.stringify({ ...JSON.parse(exported), id: 'fresh' });
      const dupEvents = JSON.parse(exported) as { events: { id: string }[] };
      dupEvents.events[1]!.id = dupEvents.events[0]!.id;
      const file = [
        fresh,
        JSON.stringify(JSON.parse(exported)),
        '{"id": "broken", ',
        JSON.stringify({ ...dupEvents, id: 'dup-events' }),
        JSON.stringify({ ...JSON.parse(exported), id: 'edited', state: { n: 99 } }),
        fresh,
        '[1, 2]',
      ].join('\n');
      const before = await databaseDump(database);
      const preview = await call(appImport.POST, 'POST', { params: { app }, query: 'applySharedState=true', body: file });
      expect(preview.status).toBe(200);
      const items = (preview.json as { items: { line: number; status: string; problem?: string }[] }).items;
      expect(items.map((item) => [item.line, item.status])).toEqual([
        [1, 'create'],
        [2, 'exists'],
        [3, 'invalid'],
        [4, 'invalid'],
        [5, 'invalid'],
        [6, 'invalid'],
        [7, 'invalid'],
      ]);
      expect(items[3]?.problem).toMatch(/is used by an earlier event/);
      expect(items[4]?.problem).toMatch(/does not follow from the events for done, n, topic/);
      expect(items[5]?.problem).toBe('id: session fresh of user u is also on line 1.');
      const refused = await call(appImport.POST, 'POST', { params: { app }, query: 'dryRun=false&applySharedState=true', body: file });
      expect(refused.status).toBe(400);
      expect(detailOf(refused)).toMatch(/^Nothing imported: 5 invalid, 1 already exist/);
      const exists = await call(appImport.POST, 'POST', { params: { app }, query: 'dryRun=false&applySharedState=true', body: exported });
      expect(exists.status).toBe(409);
      expect(await databaseDump(database)).toEqual(before);
    });

    it('refuses empty, non-UTF-8 and oversized files', async () => {
      const app = uniqueName('app');
      const before = await databaseDump(database);
      expect((await call(appImport.POST, 'POST', { params: { app }, body: '  \n' })).status).toBe(400);
      expect((await call(appImport.POST, 'POST', { params: { app }, body: new Uint8Array([0xff, 0xfe]) })).status).toBe(400);
      const huge = await call(appImport.POST, 'POST', {
        params: { app },
        body: 'x',
        headers: { 'content-length': String(64 * 1024 * 1024) },
      });
      expect(huge.status).toBe(413);
      const many = Array.from({ length: 1001 }, (_, i) => JSON.stringify({ id: `s${i}`, userId: 'u', state: {}, events: [] })).join('\n');
      const tooMany = await call(appImport.POST, 'POST', { params: { app }, body: many });
      expect([tooMany.status, detailOf(tooMany)]).toEqual([400, 'The file has more than 1000 sessions; split it.']);
      expect(await databaseDump(database)).toEqual(before);
    });
  });

  describe('retention', () => {
    it('counts first, deletes what it counted, and records actor and reason', async () => {
      const { app, params } = await seed();
      const dry = await call(prune.POST, 'POST', { params, body: { target: 'invocation', invocationId: 'i2' } });
      expect(dry.json).toEqual({ dryRun: true, sessions: 0, events: 1 });
      const real = await call(prune.POST, 'POST', {
        params,
        body: { target: 'invocation', invocationId: 'i2', dryRun: false, reason: 'pii' },
      });
      expect(real.json).toEqual({ dryRun: false, sessions: 0, events: 1 });
      const history = await call(operations.GET, 'GET', { params: { app } });
      expect(history.json).toMatchObject({ total: 1, items: [{ kind: 'prune', actor: 'local operator', reason: 'pii' }] });

      const idle = await call(appPrune.POST, 'POST', { params: { app }, body: { idleDays: 1 } });
      expect(idle.json).toEqual({ dryRun: true, sessions: 0, events: 0 });
    });

    it('refuses a deletion without a reason and a bad target, changing nothing', async () => {
      const { params } = await seed();
      const before = await databaseDump(database);
      const noReason = await call(prune.POST, 'POST', { params, body: { target: 'session', dryRun: false } });
      expect([noReason.status, detailOf(noReason)]).toEqual([400, expect.stringMatching(/^reason: is required/)]);
      expect((await call(prune.POST, 'POST', { params, body: { target: 'everything' } })).status).toBe(400);
      expect((await call(prune.POST, 'POST', { params, body: { target: 'eventsBefore', before: -1 } })).status).toBe(400);
      expect(await databaseDump(database)).toEqual(before);
    });
  });

  describe('titles and labels', () => {
    it('sets and returns them; refuses bad ones', async () => {
      const { params } = await seed();
      const set = await call(meta.PATCH, 'PATCH', { params, body: { title: 'Refund request', labels: ['billing', 'vip'] } });
      expect(set.json).toMatchObject({ title: 'Refund request', labels: ['billing', 'vip'] });
      expect((await call(meta.PATCH, 'PATCH', { params, body: { labels: ['two words'] } })).status).toBe(400);
      expect((await call(meta.PATCH, 'PATCH', { params, body: { title: 'x'.repeat(201) } })).status).toBe(400);
      expect((await call(meta.PATCH, 'PATCH', { params, body: {} })).status).toBe(400);
      expect((await call(meta.GET, 'GET', { params: { ...params, id: 'nope' } })).status).toBe(404);
    });
  });

  describe("a store without these operations (a store over ADK's own tables)", () => {
    it("answers 405 naming what it cannot do, and still rewinds and exports through ADK's own operations", async () => {
      const { params } = await seed();
      const operations = new Set(['forkSession', 'importSessions', 'getSessionMeta', 'setSessionMeta', 'prune', 'listOperations']);
      const bare = new Proxy(database.service, {
        get: (target, name, receiver) =>
          typeof name === 'string' && operations.has(name) ? undefined : Reflect.get(target, name, receiver),
      });
      setServicesForTests({ store: bare });
      try {
        const refused = await call(fork.POST, 'POST', { params, body: { atSeq: 1 } });
        expect([refused.status, detailOf(refused)]).toEqual([405, 'This session store does not support forking sessions.']);
        expect((await call(meta.GET, 'GET', { params })).status).toBe(405);
        expect((await call(prune.POST, 'POST', { params, body: { target: 'session' } })).status).toBe(405);
        expect((await call(rewind.POST, 'POST', { params, body: { rewindBeforeInvocationId: 'i3' } })).status).toBe(200);
        expect((await call(exportRoute.GET, 'GET', { params })).status).toBe(200);
      } finally {
        setServicesForTests({ store: database.service });
      }
    });
  });

  describe('roles in protected mode', () => {
    const tokens: Record<string, string> = {};
    beforeAll(async () => {
      const accounts = new AccountStore(database.db.client);
      setServicesForTests({ store: database.service, accounts });
      for (const role of ['viewer', 'support', 'admin'] as const) {
        await accounts.createAccount({ name: `ops-${role}`, password: 'a password long enough', role });
        tokens[role] = (await accounts.createToken(`ops-${role}`, 'test')).secret;
      }
      process.env.STATEHOUSE_AUTH = 'protected';
    });
    afterAll(() => {
      delete process.env.STATEHOUSE_AUTH;
    });
    const as = (role: string) => ({ authorization: `Bearer ${tokens[role]}` });

    it('lets support fork and rewind, and only admins prune', async () => {
      const { app, user, id, params } = await seed();
      const base = `/api/apps/${app}/users/${user}/sessions/${id}`;
      expect((await call(fork.POST, 'POST', { params, path: `${base}/fork`, body: { atSeq: 1 }, headers: as('viewer') })).status).toBe(403);
      const forked = await call(fork.POST, 'POST', { params, path: `${base}/fork`, body: { atSeq: 1 }, headers: as('support') });
      expect(forked.status).toBe(200);
      const history = await call(operations.GET, 'GET', { params: { app }, path: `/api/apps/${app}/operations`, headers: as('viewer') });
      expect(history.json).toMatchObject({ items: [{ kind: 'fork', actor: 'ops-support' }] });
      const body = { target: 'session' };
      expect((await call(prune.POST, 'POST', { params, path: `${base}/prune`, body, headers: as('support') })).status).toBe(403);
      expect(
        (
          await call(appPrune.POST, 'POST', {
            params: { app },
            path: `/api/apps/${app}/prune`,
            body: { idleDays: 1 },
            headers: as('support'),
          })
        ).status,
      ).toBe(403);
      expect((await call(prune.POST, 'POST', { params, path: `${base}/prune`, body, headers: as('admin') })).json).toMatchObject({
        sessions: 1,
      });
    });
  });
});
