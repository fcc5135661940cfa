// DELETE /api/apps/{app} and /api/apps/{app}/users/{user}: test suites'
// clean-up leaves every table as it was before the data arrived (but for the
// operations log's record of the clear), on SQLite and PostgreSQL; and clears
// only namespaces a test kit marked as its own, with a reason, a dry run, and
// a switch that turns it off.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, databaseDump as fullDump, detailOf } from '@/lib/testing/http';
import { testProviders } from '@/lib/testing/databases';
import { uniqueName } from '@/lib/testing/factories';
import { useTestDatabase } from '@/lib/testing/use-test-database';
import * as appRoute from './apps/[app]/route';
import * as appState from './apps/[app]/state/route';
import * as userRoute from './apps/[app]/users/[user]/route';
import * as userState from './apps/[app]/users/[user]/state/route';
import * as operations from './apps/[app]/operations/route';
import * as namespaces from './test-namespaces/route';
import { appendEvent } from '@/lib/session-service/append';

const providers = await testProviders();

describe.each(providers)('clearing data on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });

  /** Every table; the app session counts as their sums per app (the slots they are spread over are the triggers' business). */
  async function databaseDump(db: typeof database): Promise<Record<string, unknown>> {
    const { app_session_counts: slots = [], ...rest } = await fullDump(db);
    const sums: Record<string, { sessions: number; users: number }> = {};
    for (const row of slots) {
      const { app_name, sessions, users } = JSON.parse(row) as { app_name: string; sessions: number; users: number };
      const sum = (sums[app_name] ??= { sessions: 0, users: 0 });
      sum.sessions += sessions;
      sum.users += users;
    }
    return { ...rest, app_session_counts: sums };
  }

  /** The dump without the operations log of `app` (where a clear is recorded). */
  async function dumpBesidesLogOf(app: string): Promise<Record<string, unknown>> {
    const { session_operations: log = [], ...rest } = (await databaseDump(database)) as { session_operations?: string[] };
    return { ...rest, session_operations: log.filter((row) => (JSON.parse(row) as { app_name: string }).app_name !== app) };
  }

  const run = { id: 'run-1', host: 'ci-1', pid: 4242 };
  const mark = async (appName: string, userSuffix?: string) => {
    const marked = await call(namespaces.POST, 'POST', {
      body: { appName, ...(userSuffix ? { userSuffix } : {}), run, actor: 'playwright: a.spec.ts › t' },
    });
    expect(marked.status, JSON.stringify(marked.json)).toBe(200);
  };
  const clear = (reason = 'test clean-up', extra = '') =>
    `reason=${encodeURIComponent(reason)}&actor=${encodeURIComponent('playwright: a.spec.ts › t')}${extra}`;

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  /** Sessions with events in every tier, and audited edits of app and user state. */
  async function fill(appName: string, userId: string, appKeys = true): Promise<void> {
    const session = await database.service.createSession({
      appName,
      userId,
      state: { ...(appKeys ? { 'app:banner': 'hi' } : {}), 'user:name': 'Ada', topic: 'tea' },
    });
    await appendEvent(database.service, session, {
      author: 'agent',
      actions: { stateDelta: { topic: 'coffee', 'user:lang': 'en', 'temp:x': 1 } },
    });
    await database.service.createSession({ appName, userId, state: { 'user:name': 'Ada L.' } });
    await call(userState.PATCH, 'PATCH', { params: { app: appName, user: userId }, body: { set: { plan: 'pro' }, reason: 'test' } });
  }

  it('removes an app with its sessions, events, state and history', async () => {
    const keep = uniqueName('keep');
    await fill(keep, 'u1');
    const before = await databaseDump(database);
    const app = uniqueName('app');
    await mark(app);
    await fill(app, 'u1');
    await fill(app, 'u2');
    await call(appState.PATCH, 'PATCH', { params: { app }, body: { set: { mode: 'x' }, reason: 'test', actor: 'kit' } });

    const dry = await call(appRoute.DELETE, 'DELETE', { params: { app }, query: clear('look first', '&dryRun=true') });
    expect(dry).toMatchObject({ status: 200, json: { dryRun: true, sessions: 4, events: 2, stateKeys: 8 } });
    expect(await database.service.getAppSummary(app)).toMatchObject({ sessionCount: 4 });

    const cleared = await call(appRoute.DELETE, 'DELETE', { params: { app }, query: clear() });
    expect(cleared).toMatchObject({ status: 200, json: { dryRun: false, sessions: 4, events: 2, stateKeys: 8 } });
    expect(await dumpBesidesLogOf(app)).toEqual(before);
    const log = await call(operations.GET, 'GET', { params: { app } });
    expect((log.json as { items: unknown[] }).items).toEqual([
      expect.objectContaining({
        kind: 'clear',
        actor: 'playwright: a.spec.ts › t',
        reason: 'test clean-up',
        detail: { sessions: 4, events: 2, stateKeys: 8 },
      }),
    ]);
    // The mark went with the app: clearing it again is refused.
    expect((await call(appRoute.DELETE, 'DELETE', { params: { app }, query: clear() })).status).toBe(403);
  });

  it('refuses to clear an app no test kit marked, or without a reason, and leaves it whole', async () => {
    const app = uniqueName('app');
    await fill(app, 'u1');
    const before = await databaseDump(database);
    const unmarked = await call(appRoute.DELETE, 'DELETE', { params: { app }, query: clear() });
    expect(unmarked.status).toBe(403);
    expect(detailOf(unmarked)).toContain(`App ${app} was not created by a test kit`);
    const user = await call(userRoute.DELETE, 'DELETE', { params: { app, user: 'u1' }, query: clear() });
    expect(user.status).toBe(403);
    await mark(app);
    const noReason = await call(appRoute.DELETE, 'DELETE', { params: { app } });
    expect(noReason.status).toBe(400);
    expect(detailOf(noReason)).toContain('reason: is required');
    const { session_operations: _log, ...rest } = await databaseDump(database);
    const { session_operations: _before, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
  });

  it('clears nothing when switched off (STATEHOUSE_NO_TEST_NAMESPACES), marking included', async () => {
    const app = uniqueName('app');
    await mark(app);
    await fill(app, 'u1');
    vi.stubEnv('STATEHOUSE_NO_TEST_NAMESPACES', '1');
    const refused = await call(appRoute.DELETE, 'DELETE', { params: { app }, query: clear() });
    expect(refused.status).toBe(403);
    expect(detailOf(refused)).toContain('STATEHOUSE_NO_TEST_NAMESPACES');
    const marking = await call(namespaces.POST, 'POST', { body: { appName: uniqueName('other'), run } });
    expect(marking.status).toBe(403);
    expect(await database.service.getAppSummary(app)).toMatchObject({ sessionCount: 2 });
  });

  it('lists the marks with their run, and clears a user namespace user by user, then releases it', async () => {
    const app = uniqueName('shared');
    await fill(app, 'owner');
    const before = await dumpBesidesLogOf(app);
    await mark(app, '@pw-w0-abc');
    const listed = await call(namespaces.GET, 'GET');
    expect((listed.json as { items: unknown[] }).items).toContainEqual(
      expect.objectContaining({ appName: app, userSuffix: '@pw-w0-abc', run, actor: 'playwright: a.spec.ts › t' }),
    );
    await fill(app, 'ada@pw-w0-abc', false);
    expect((await call(userRoute.DELETE, 'DELETE', { params: { app, user: 'owner' }, query: clear() })).status).toBe(403);
    expect((await call(userRoute.DELETE, 'DELETE', { params: { app, user: '@pw-w0-abc' }, query: clear() })).status).toBe(403);
    const cleared = await call(userRoute.DELETE, 'DELETE', { params: { app, user: 'ada@pw-w0-abc' }, query: clear() });
    expect(cleared).toMatchObject({ status: 200, json: { sessions: 2, events: 1 } });
    const released = await call(namespaces.DELETE, 'DELETE', { query: `appName=${app}&userSuffix=%40pw-w0-abc` });
    expect(released.status).toBe(200);
    expect((await call(namespaces.GET, 'GET')).json).not.toMatchObject({
      items: expect.arrayContaining([expect.objectContaining({ appName: app })]),
    });
    expect(await dumpBesidesLogOf(app)).toEqual(before);
  });

  it('removes one user of an app, leaving the app, its state and its other users', async () => {
    const app = uniqueName('app');
    await fill(app, 'stays');
    const before = await dumpBesidesLogOf(app);
    await mark(app, '@ns');
    await fill(app, 'goes@ns', false);

    const cleared = await call(userRoute.DELETE, 'DELETE', { params: { app, user: 'goes@ns' }, query: clear() });
    expect(cleared).toMatchObject({ status: 200, json: { dryRun: false, sessions: 2, events: 1, stateKeys: 3 } });
    expect(await dumpBesidesLogOf(app)).toEqual(before);
  });

  it('clears users of one app at once while others create sessions there, counts exact', async () => {
    const app = uniqueName('app');
    await mark(app, '@ns');
    const users = Array.from({ length: 8 }, (_, i) => `u${i}@ns`);
    for (const user of users) await fill(app, user, false);
    const stay = Array.from({ length: 4 }, (_, i) => `new${i}`);
    const results = await Promise.all([
      ...users.map((user) => call(userRoute.DELETE, 'DELETE', { params: { app, user }, query: clear() })),
      ...stay.map((user) => database.service.createSession({ appName: app, userId: user }).then(() => ({ status: 200 }))),
    ]);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect(await database.service.getAppSummary(app)).toMatchObject({ sessionCount: 4, userCount: 4 });
    const dump = await databaseDump(database);
    expect(dump.app_session_counts).toMatchObject({ [app]: { sessions: 4, users: 4 } });
  });

  it('refuses an id that cannot be one', async () => {
    const result = await call(userRoute.DELETE, 'DELETE', { params: { app: 'a', user: ' x' } });
    expect(result.status).toBe(400);
  });
});
