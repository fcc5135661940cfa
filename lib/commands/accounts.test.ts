// Account management commands (the admin page's actions minus the role
// check) against real databases.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../auth/principal';
import { AccountStore } from '../auth/store';
import { testProviders } from '../testing/databases';
import { useTestDatabase } from '../testing/use-test-database';
import { createAccountCommand, createTokenCommand, revokeTokenCommand, setPasswordCommand, updateAccountCommand } from './accounts';

const providers = await testProviders();
const PASSWORD = 'a password long enough';

describe.each(providers)('account commands on %s', (provider) => {
  const database = useTestDatabase(provider);
  let store: AccountStore;
  const me: Principal = { name: 'root', role: 'admin', via: 'session' };

  beforeAll(async () => {
    store = new AccountStore(database.db.client);
    await store.createAccount({ name: 'root', password: PASSWORD, role: 'admin' });
  });

  it('creates accounts, with each bad field named', async () => {
    expect(await createAccountCommand(store, { name: 'ops', password: PASSWORD, role: 'support' })).toMatchObject({
      ok: true,
      data: { name: 'ops', role: 'support' },
    });
    expect(await createAccountCommand(store, { name: ' ', password: 'short', role: 'owner' })).toEqual({
      ok: false,
      code: 'INVALID_INPUT',
      message: 'Some fields need attention.',
      fieldErrors: {
        name: 'is required',
        password: 'must be at least 12 characters',
        role: 'must be one of viewer, support, admin',
      },
    });
    expect(await createAccountCommand(store, { name: 'ops', password: PASSWORD, role: 'viewer' })).toMatchObject({
      ok: false,
      code: 'ALREADY_EXISTS',
    });
    expect(await createAccountCommand(store, null)).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });

  it('changes roles and disables accounts, but never locks out the admin doing it', async () => {
    expect(await updateAccountCommand(store, me, { name: 'ops', role: 'viewer' })).toMatchObject({ ok: true, data: { role: 'viewer' } });
    expect(await updateAccountCommand(store, me, { name: 'ops', disabled: true })).toMatchObject({ ok: true, data: { disabled: true } });
    expect(await updateAccountCommand(store, me, { name: 'root', role: 'viewer' })).toMatchObject({
      ok: false,
      fieldErrors: { form: expect.stringContaining('cannot demote or disable the account you are signed in with') },
    });
    expect(await updateAccountCommand(store, me, { name: 'root', disabled: true })).toMatchObject({ ok: false });
    expect((await store.findAccount('root'))?.role).toBe('admin');
    expect(await updateAccountCommand(store, me, { name: 'nobody', role: 'admin' })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await updateAccountCommand(store, me, { name: 'ops' })).toMatchObject({
      ok: false,
      fieldErrors: { form: 'Nothing to change.' },
    });
  });

  it('sets passwords', async () => {
    expect(await setPasswordCommand(store, { name: 'ops', password: 'another good password' })).toEqual({ ok: true, data: null });
    await store.setDisabled('ops', false);
    expect(await store.verifyCredentials('ops', 'another good password')).not.toBeNull();
    expect(await setPasswordCommand(store, { name: 'ops', password: 'short' })).toMatchObject({
      ok: false,
      fieldErrors: { password: 'must be at least 12 characters' },
    });
  });

  it('creates tokens shown once and revokes them', async () => {
    const created = await createTokenCommand(store, { name: 'ops', label: 'agent' });
    if (!created.ok) throw new Error(created.message);
    expect(await store.tokenAccount(created.data.secret)).toMatchObject({ name: 'ops' });
    expect(await revokeTokenCommand(store, { id: created.data.token.id })).toMatchObject({ ok: true, data: { revoked: true } });
    expect(await store.tokenAccount(created.data.secret)).toBeNull();
    expect(await createTokenCommand(store, { name: 'ops', label: '' })).toMatchObject({ ok: false, fieldErrors: { label: 'is required' } });
    expect(await revokeTokenCommand(store, { id: 'one' })).toMatchObject({ ok: false, fieldErrors: { id: 'must be a number' } });
  });
});
