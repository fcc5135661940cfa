// Notes over HTTP (list, add, remove), through the same commands as the
// console's note form, on SQLite and PostgreSQL: role-checked in protected
// mode, signed with the caller's account, kept with who removed them for the
// audit log, and keyed by the store the path names (an agent's ADK store
// under /api/stores/{id}/...).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore } from '@/lib/auth/store';
import { storeRouteHandlers } from '@/lib/http/api/match';
import { nativeStoreInfo, setServicesForTests, type ServedStore } from '@/lib/services';
import { SqlNoteStore } from '@/lib/stores/notes/sql-notes';
import type { AdkSessionStore } from '@/lib/stores/adk';
import { APP } from '@/lib/testing/adk-fixtures';
import { openAdkFixture, type FixtureStore } from '@/lib/testing/adk-fixtures/stores';
import { testProviders } from '@/lib/testing/databases';
import { call, detailOf, type CallOptions } from '@/lib/testing/http';
import { useTestDatabase } from '@/lib/testing/use-test-database';
import * as notes from './apps/[app]/users/[user]/sessions/[id]/notes/route';
import * as note from './apps/[app]/users/[user]/sessions/[id]/notes/[note]/route';

const providers = await testProviders();
const PASSWORD = 'a password long enough';

describe.each(providers)('the notes API on %s', (provider) => {
  const database = useTestDatabase(provider);
  let adk: FixtureStore<AdkSessionStore> | undefined;
  const tokens: Record<'viewer' | 'support', string> = { viewer: '', support: '' };
  const params = { app: 'notes-api', user: 'carol', id: 's1' };
  const path = '/api/apps/notes-api/users/carol/sessions/s1/notes';
  const byStore = storeRouteHandlers();

  beforeAll(async () => {
    const accounts = new AccountStore(database.db.client);
    for (const role of ['viewer', 'support'] as const) {
      await accounts.createAccount({ name: `${role}-ann`, password: PASSWORD, role });
      tokens[role] = (await accounts.createToken(`${role}-ann`, 'test')).secret;
    }
    await database.service.createSession({ appName: params.app, userId: params.user, sessionId: params.id });
    adk = await openAdkFixture({ family: 'py-sqlite' }, { id: 'agents' });
    const native: ServedStore = { store: database.service, info: nativeStoreInfo('test') };
    const served = new Map<string, ServedStore>([
      ['native', native],
      ['agents', { store: adk.store, info: adk.store.info }],
    ]);
    setServicesForTests({ ...native, served, accounts, notes: new SqlNoteStore(database.db.client, database.db.provider) });
    process.env.STATEHOUSE_AUTH = 'protected';
  });
  afterEach(() => {
    process.env.STATEHOUSE_AUTH = 'protected';
  });
  afterAll(async () => {
    delete process.env.STATEHOUSE_AUTH;
    setServicesForTests({});
    await adk?.close();
  });

  const as = <P>(role: keyof typeof tokens, options: CallOptions<P>): CallOptions<P> => ({
    ...options,
    headers: { ...options.headers, authorization: `Bearer ${tokens[role]}` },
  });

  it('adds, lists and removes a note, signed by the caller, and keeps the removed one for the audit log', async () => {
    const added = await call(notes.POST, 'POST', as('support', { params, path, body: { text: '  Refund pending with billing  ' } }));
    expect(added.status, added.text).toBe(201);
    expect(added.json).toMatchObject({ author: 'support-ann', text: 'Refund pending with billing', removed: null, sessionId: 's1' });
    expect(added.json).not.toHaveProperty('storeId');
    const id = (added.json as { id: number }).id;

    const listed = await call(notes.GET, 'GET', as('viewer', { params, path }));
    expect(listed.status).toBe(200);
    expect((listed.json as { items: { id: number }[] }).items.map((item) => item.id)).toEqual([id]);

    const notePath = `${path}/${id}`;
    const removed = await call(note.DELETE, 'DELETE', as('support', { params: { ...params, note: String(id) }, path: notePath }));
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json).toMatchObject({ id, removed: { by: 'support-ann' } });
    expect((await call(notes.GET, 'GET', as('viewer', { params, path }))).json).toEqual({ items: [] });
    const history = await new SqlNoteStore(database.db.client, database.db.provider).history({ storeId: 'native', appName: params.app });
    expect(history.items).toMatchObject([{ id, author: 'support-ann', removed: { by: 'support-ann' } }]);

    const again = await call(note.DELETE, 'DELETE', as('support', { params: { ...params, note: String(id) }, path: notePath }));
    expect(again.status).toBe(400);
  });

  it('refuses a viewer’s write (403), a blank note and a malformed note id (400), and an unknown session (404)', async () => {
    expect((await call(notes.POST, 'POST', as('viewer', { params, path, body: { text: 'x' } }))).status).toBe(403);
    const anonymous = await call(notes.GET, 'GET', { params, path });
    expect(anonymous.status).toBe(401);
    const blank = await call(notes.POST, 'POST', as('support', { params, path, body: { text: '   ' } }));
    expect([blank.status, detailOf(blank)]).toEqual([400, expect.stringContaining('text')]);
    const badId = await call(note.DELETE, 'DELETE', as('support', { params: { ...params, note: 'abc' }, path: `${path}/abc` }));
    expect(badId.status).toBe(400);
    const missing = { ...params, id: 'no-such-session' };
    const missingPath = '/api/apps/notes-api/users/carol/sessions/no-such-session/notes';
    expect((await call(notes.GET, 'GET', as('viewer', { params: missing, path: missingPath }))).status).toBe(404);
    expect((await call(notes.POST, 'POST', as('support', { params: missing, path: missingPath, body: { text: 'x' } }))).status).toBe(404);
  });

  it('keeps notes on an agent’s session under that store’s id, through /api/stores/{id}/...', async () => {
    const adkPath = `/api/stores/agents/apps/${APP}/users/alice/sessions/trip-paris/notes`;
    const added = await call(byStore.POST, 'POST', as('support', { path: adkPath, body: { text: 'Called the hotel in Paris' } }));
    expect(added.status, added.text).toBe(201);
    const listed = await call(byStore.GET, 'GET', as('viewer', { path: adkPath }));
    expect((listed.json as { items: { text: string }[] }).items.map((item) => item.text)).toEqual(['Called the hotel in Paris']);
    const store = new SqlNoteStore(database.db.client, database.db.provider);
    expect(await store.list({ storeId: 'agents', appName: APP, userId: 'alice', sessionId: 'trip-paris' })).toHaveLength(1);
    expect(await store.list({ storeId: 'native', appName: APP, userId: 'alice', sessionId: 'trip-paris' })).toHaveLength(0);
    const id = (added.json as { id: number }).id;
    const removed = await call(byStore.DELETE, 'DELETE', as('support', { path: `${adkPath}/${id}` }));
    expect(removed.status, removed.text).toBe(200);
  });
});
