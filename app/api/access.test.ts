// Access control of the API in protected mode, through the real route
// handlers, on SQLite and PostgreSQL: 401 without proof, 403 below the
// role a route needs, and the signed-in account in the audit trail.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore } from '@/lib/auth/store';
import { setServicesForTests } from '@/lib/services';
import { call, type CallOptions } from '@/lib/testing/http';
import { testProviders } from '@/lib/testing/databases';
import { useTestDatabase } from '@/lib/testing/use-test-database';
import * as listApps from './list-apps/route';
import * as appState from './apps/[app]/state/route';
import * as session from './apps/[app]/users/[user]/sessions/[id]/route';
import * as events from './apps/[app]/users/[user]/sessions/[id]/events/route';
import * as sessions from './apps/[app]/users/[user]/sessions/route';

const providers = await testProviders();
const PASSWORD = 'a password long enough';

describe.each(providers)('API access in protected mode on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });
  let accounts: AccountStore;
  const tokens: Record<'viewer' | 'support' | 'admin', string> = { viewer: '', support: '', admin: '' };
  const ref = { app: 'acl', user: 'u1', id: 's1' };
  const sessionPath = '/api/apps/acl/users/u1/sessions/s1';

  beforeAll(async () => {
    accounts = new AccountStore(database.db.client);
    setServicesForTests({ store: database.service, accounts });
    for (const role of ['viewer', 'support', 'admin'] as const) {
      await accounts.createAccount({ name: role, password: PASSWORD, role });
      tokens[role] = (await accounts.createToken(role, 'test')).secret;
    }
    await database.service.createSession({ appName: ref.app, userId: ref.user, sessionId: ref.id });
    process.env.STATEHOUSE_AUTH = 'protected';
  });
  afterEach(() => {
    process.env.STATEHOUSE_AUTH = 'protected';
  });
  afterAll(async () => {
    delete process.env.STATEHOUSE_AUTH;
    setServicesForTests({});
  });

  const as = <P>(role: keyof typeof tokens | null, options: CallOptions<P>): CallOptions<P> => ({
    ...options,
    headers: { ...options.headers, ...(role ? { authorization: `Bearer ${tokens[role]}` } : {}) },
  });

  it('refuses requests that prove nobody with 401 and a Bearer challenge', async () => {
    const anonymous = await call(listApps.GET, 'GET', { path: '/api/list-apps' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="statehouse"');
    expect(anonymous.json).toEqual({ detail: expect.stringContaining('Sign-in required') });

    const forged = await call(listApps.GET, 'GET', { path: '/api/list-apps', headers: { authorization: `Bearer ${tokens.admin}x` } });
    expect(forged.status).toBe(401);
    const cookie = await call(listApps.GET, 'GET', { path: '/api/list-apps', headers: { cookie: 'statehouse_session=shs_guess' } });
    expect(cookie.status).toBe(401);
  });

  it('accepts a sign-in session cookie', async () => {
    const admin = await accounts.verifyCredentials('admin', PASSWORD);
    const { secret } = await accounts.startSession(admin!.id, 60);
    const response = await call(listApps.GET, 'GET', {
      path: '/api/list-apps',
      headers: { cookie: `other=1; statehouse_session=${secret}` },
    });
    expect(response.status).toBe(200);
  });

  it('gives each role what it may do, and nothing more', async () => {
    const params = ref;
    expect((await call(session.GET, 'GET', as('viewer', { params, path: sessionPath }))).status).toBe(200);

    const patch = { params, path: sessionPath, body: { stateDelta: { 'user:plan': 'pro' } } };
    const refused = await call(session.PATCH, 'PATCH', as('viewer', patch));
    expect(refused).toMatchObject({ status: 403, json: { detail: 'Forbidden: this needs the support role.' } });
    expect((await database.service.getSession({ appName: 'acl', userId: 'u1', sessionId: 's1' }))?.events).toHaveLength(0);
    expect((await call(session.PATCH, 'PATCH', as('support', patch))).status).toBe(200);

    const edit = {
      params: { app: 'acl' },
      path: '/api/apps/acl/state',
      body: { set: { tone: 'warm' }, reason: 'launch', actor: 'someone-else' },
    };
    expect((await call(appState.PATCH, 'PATCH', as('support', edit))).status).toBe(403);
    expect((await call(appState.PATCH, 'PATCH', as('admin', edit))).status).toBe(200);
    const [change] = (await database.service.getKeyHistory({ appName: 'acl', scope: 'app', key: 'tone' })).items;
    // The claimed name is kept for what it says (a test's name), the account always recorded after it.
    expect(change).toMatchObject({ actor: 'someone-else (by admin)', reason: 'launch' });

    expect((await call(session.DELETE, 'DELETE', as('support', { params, path: sessionPath }))).status).toBe(403);
    expect(await database.service.getSessionSummary({ appName: 'acl', userId: 'u1', sessionId: 's1' })).not.toBeNull();
    expect((await call(session.DELETE, 'DELETE', as('admin', { params, path: sessionPath }))).status).toBe(200);
  });

  it('needs admin for app: keys at every door that carries state, as an app state edit does', async () => {
    const params = { app: 'acl', user: 'u1', id: 'app-keys' };
    const path = '/api/apps/acl/users/u1/sessions/app-keys';
    const appKey = { 'app:escalation_email': 'x@evil.example' };
    const event = { author: 'user', actions: { stateDelta: appKey } };
    const owner = { app: 'acl', user: 'u1' };
    const list = '/api/apps/acl/users/u1/sessions';
    const doors: [string, (role: 'support' | 'admin') => Promise<{ status: number; json: unknown }>][] = [
      ['append', (role) => call(events.POST, 'POST', as(role, { params, path: `${path}/events`, body: event }))],
      ['patch', (role) => call(session.PATCH, 'PATCH', as(role, { params, path, body: { stateDelta: appKey } }))],
      [
        'create with id',
        (role) => call(session.POST, 'POST', as(role, { params: { ...params, id: 'new-1' }, path: `${list}/new-1`, body: appKey })),
      ],
      [
        'create with state',
        (role) => call(sessions.POST, 'POST', as(role, { params: owner, path: list, body: { sessionId: 'new-2', state: appKey } })),
      ],
      [
        'create with events',
        (role) => call(sessions.POST, 'POST', as(role, { params: owner, path: list, body: { sessionId: 'new-3', events: [event] } })),
      ],
    ];
    await database.service.createSession({ appName: 'acl', userId: 'u1', sessionId: 'app-keys' });
    for (const [name, send] of doors) {
      expect(await send('support'), name).toMatchObject({
        status: 403,
        json: { detail: 'Forbidden: changing app: keys (app state) needs the admin role.' },
      });
    }
    expect(await database.service.getAppState('acl')).not.toContainEqual(expect.objectContaining({ key: 'escalation_email' }));
    expect((await database.service.getSession({ appName: 'acl', userId: 'u1', sessionId: 'app-keys' }))?.events).toHaveLength(0);
    for (const id of ['new-1', 'new-2', 'new-3']) {
      expect(await database.service.getSessionSummary({ appName: 'acl', userId: 'u1', sessionId: id }), id).toBeNull();
    }

    // Support keeps every other key; admins may write app: keys anywhere.
    const userOnly = { author: 'user', actions: { stateDelta: { 'user:tier': 'gold', note: 1, 'temp:x': 2 } } };
    expect((await call(events.POST, 'POST', as('support', { params, path: `${path}/events`, body: userOnly }))).status).toBe(200);
    for (const [name, send] of doors) expect((await send('admin')).status, name).toBe(200);
  });

  it('stops honouring a revoked token and a disabled account at once', async () => {
    const { secret, token } = await accounts.createToken('viewer', 'short-lived');
    const read = () => call(listApps.GET, 'GET', { path: '/api/list-apps', headers: { authorization: `Bearer ${secret}` } });
    expect((await read()).status).toBe(200);
    await accounts.revokeToken(token.id);
    expect((await read()).status).toBe(401);

    await accounts.setDisabled('viewer', true);
    expect((await call(listApps.GET, 'GET', as('viewer', { path: '/api/list-apps' }))).status).toBe(401);
    await accounts.setDisabled('viewer', false);
  });

  it('asks nothing in local mode', async () => {
    delete process.env.STATEHOUSE_AUTH;
    expect((await call(listApps.GET, 'GET', { path: '/api/list-apps' })).status).toBe(200);
  });
});
