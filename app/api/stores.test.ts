// Several stores side by side (issue 26: "STATEHOUSE_STORE accepts several
// stores but serves only the first"): /api/stores/{id}/... is that store's
// API, /api/... stays the first store's, an unknown id is a 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeRouteHandlers } from '@/lib/http/api/match';
import { nativeStoreInfo, setServicesForTests } from '@/lib/services';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/databases';
import { call, detailOf } from '@/lib/testing/http';
import * as apps from './apps/route';
import * as session from './apps/[app]/users/[user]/sessions/[id]/route';

describe('several stores side by side', () => {
  let prod: TestDatabase;
  let dev: TestDatabase;
  const byStore = storeRouteHandlers();

  beforeAll(async () => {
    [prod, dev] = await Promise.all([createTestDatabase('sqlite'), createTestDatabase('sqlite')]);
    await prod.service.createSession({ appName: 'shop', userId: 'u', sessionId: 'in-prod' });
    await dev.service.createSession({ appName: 'lab', userId: 'u', sessionId: 'in-dev' });
    const served = new Map([
      ['prod', { store: prod.service, info: { ...nativeStoreInfo('prod.db'), id: 'prod' } }],
      ['dev', { store: dev.service, info: { ...nativeStoreInfo('dev.db'), id: 'dev' } }],
    ]);
    setServicesForTests({ store: prod.service, info: served.get('prod')?.info, served });
  });
  afterAll(async () => {
    setServicesForTests({});
    await Promise.all([prod?.drop(), dev?.drop()]);
  });

  const appNames = (json: unknown) => (json as { items: { appName: string }[] }).items.map((app) => app.appName);

  it('serves the first store at /api and each store under /api/stores/{id}', async () => {
    expect(appNames((await call(apps.GET, 'GET', { path: '/api/apps' })).json)).toEqual(['shop']);
    expect(appNames((await call(byStore.GET, 'GET', { path: '/api/stores/dev/apps' })).json)).toEqual(['lab']);
    expect(appNames((await call(byStore.GET, 'GET', { path: '/api/stores/prod/apps' })).json)).toEqual(['shop']);
    const found = await call(byStore.GET, 'GET', { path: '/api/stores/dev/apps/lab/users/u/sessions/in-dev' });
    expect(found.json).toMatchObject({ id: 'in-dev', appName: 'lab' });
    // The same handler at the root reads the first store, which has no such session.
    const params = { app: 'lab', user: 'u', id: 'in-dev' };
    expect((await call(session.GET, 'GET', { params, path: '/api/apps/lab/users/u/sessions/in-dev' })).status).toBe(404);
  });

  it('answers 404 for a store it does not serve, and for a path the table does not have', async () => {
    const unknown = await call(byStore.GET, 'GET', { path: '/api/stores/staging/apps' });
    expect([unknown.status, detailOf(unknown)]).toEqual([404, 'No store "staging" is served here; the stores are prod, dev.']);
    expect((await call(byStore.GET, 'GET', { path: '/api/stores/dev/nothing-here' })).status).toBe(404);
  });

  it('writes into the store its path names', async () => {
    const created = await call(byStore.POST, 'POST', { path: '/api/stores/dev/apps/lab/users/u/sessions', body: { sessionId: 'new' } });
    expect(created.status).toBe(200);
    expect(await dev.service.getSessionSummary({ appName: 'lab', userId: 'u', sessionId: 'new' })).not.toBeNull();
    expect(await prod.service.getSessionSummary({ appName: 'lab', userId: 'u', sessionId: 'new' })).toBeNull();
  });
});
