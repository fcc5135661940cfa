// DELETE /api/apps/{app} and /api/apps/{app}/users/{user}: test suites'
// clean-up leaves every table as it was before the data arrived, on SQLite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { call, databaseDump as fullDump } from '@/lib/testing/http';
import { testProviders } from '@/lib/testing/databases';
import { uniqueName } from '@/lib/testing/factories';
import { useTestDatabase } from '@/lib/testing/use-test-database';
import * as appRoute from './apps/[app]/route';
import * as appState from './apps/[app]/state/route';
import * as userRoute from './apps/[app]/users/[user]/route';
import * as userState from './apps/[app]/users/[user]/state/route';
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
    await fill(app, 'u1');
    await fill(app, 'u2');
    await call(appState.PATCH, 'PATCH', { params: { app }, body: { set: { mode: 'x' }, reason: 'test', actor: 'kit' } });

    const cleared = await call(appRoute.DELETE, 'DELETE', { params: { app } });
    expect(cleared).toMatchObject({ status: 200, json: null });
    expect(await databaseDump(database)).toEqual(before);
    expect((await call(appRoute.DELETE, 'DELETE', { params: { app } })).status).toBe(200);
  });

  it('removes one user of an app, leaving the app, its state and its other users', async () => {
    const app = uniqueName('app');
    await fill(app, 'stays');
    const before = await databaseDump(database);
    await fill(app, 'goes', false);

    const cleared = await call(userRoute.DELETE, 'DELETE', { params: { app, user: 'goes' } });
    expect(cleared).toMatchObject({ status: 200, json: null });
    expect(await databaseDump(database)).toEqual(before);
  });

  it('clears users of one app at once while others create sessions there, counts exact', async () => {
    const app = uniqueName('app');
    const users = Array.from({ length: 8 }, (_, i) => `u${i}`);
    for (const user of users) await fill(app, user, false);
    const stay = Array.from({ length: 4 }, (_, i) => `new${i}`);
    const results = await Promise.all([
      ...users.map((user) => call(userRoute.DELETE, 'DELETE', { params: { app, user } })),
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
