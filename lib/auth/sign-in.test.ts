// The sign-in throttle around the real password check, its counts in the
// database (SQLite and PostgreSQL): parallel guesses, guesses across names,
// and a correct password that failures elsewhere cannot keep out.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testProviders } from '../testing/databases';
import { useTestDatabase } from '../testing/use-test-database';
import { checkSignIn } from './sign-in';
import { BUDGETS } from './sign-in-throttle';
import { AccountStore } from './store';

const PASSWORD = 'correct horse battery';

const providers = await testProviders();

describe.each(providers)('sign-in throttle on %s', (provider) => {
  const database = useTestDatabase(provider);
  let store: AccountStore;
  let checked: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    store = new AccountStore(database.db.client);
    await store.createAccount({ name: 'victim', password: PASSWORD, role: 'admin' });
    await store.createAccount({ name: 'other', password: PASSWORD, role: 'viewer' });
  });
  afterEach(async () => {
    await store.throttle.reset();
    vi.useRealTimers();
    checked?.mockRestore();
  });
  const spy = () => (checked = vi.spyOn(store, 'verifyCredentials'));

  it('checks only the free attempts of 40 parallel wrong passwords, then refuses before hashing', async () => {
    spy();
    const results = await Promise.all(Array.from({ length: 40 }, () => checkSignIn(store, 'victim', 'wrong guess', '10.0.0.1')));
    expect(checked).toHaveBeenCalledTimes(BUDGETS.pair.free);
    expect(results.filter((result) => !result.ok && result.reason === 'wrong')).toHaveLength(BUDGETS.pair.free);
    expect(results.filter((result) => !result.ok && result.reason === 'throttled')).toHaveLength(40 - BUDGETS.pair.free);
  });

  it('lets the right password in from elsewhere while one address hammers the account', async () => {
    for (let round = 0; round < 40; round += 1) await checkSignIn(store, 'victim', 'wrong guess', '10.0.0.1');
    expect(await checkSignIn(store, 'victim', PASSWORD, '10.0.0.2')).toMatchObject({ ok: true });
  });

  it('lets the owner in from an address they used before while many addresses hammer the account', async () => {
    expect(await checkSignIn(store, 'victim', PASSWORD, '10.0.0.9')).toMatchObject({ ok: true });
    for (let address = 0; address < 30; address += 1) {
      for (let round = 0; round < 3; round += 1) await checkSignIn(store, 'victim', 'wrong', `192.168.0.${address}`);
    }
    // A new address now waits (guessing from many places is slowed too) ...
    expect(await checkSignIn(store, 'victim', PASSWORD, '10.0.0.3')).toMatchObject({ ok: false, reason: 'throttled' });
    // ... but the owner's known address does not.
    expect(await checkSignIn(store, 'victim', PASSWORD, '10.0.0.9')).toMatchObject({ ok: true });
  });

  it('slows one address guessing across account names', async () => {
    spy();
    const names = Array.from({ length: 60 }, (_, index) => `name-${index}`);
    const results = await Promise.all(names.map((name) => checkSignIn(store, name, 'guess', '10.0.0.5')));
    expect(checked).toHaveBeenCalledTimes(BUDGETS.address.free);
    expect(results.filter((result) => !result.ok && result.reason === 'throttled')).toHaveLength(60 - BUDGETS.address.free);
  });

  it('lets the owner in from their known address while the same address guesses other names (one shared proxy)', async () => {
    expect(await checkSignIn(store, 'victim', PASSWORD, '10.0.0.10')).toMatchObject({ ok: true });
    for (let index = 0; index < 60; index += 1) await checkSignIn(store, `stranger-${index}`, 'guess', '10.0.0.10');
    expect(await checkSignIn(store, 'someone-new', 'guess', '10.0.0.10')).toMatchObject({ ok: false, reason: 'throttled' });
    expect(await checkSignIn(store, 'victim', PASSWORD, '10.0.0.10')).toMatchObject({ ok: true });
  });

  it('never locks a correct password out for longer than the cap', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    for (let round = 0; round < 200; round += 1) {
      await checkSignIn(store, 'other', 'wrong', '10.0.0.7');
      vi.setSystemTime(Date.now() + 1);
    }
    expect(await checkSignIn(store, 'other', PASSWORD, '10.0.0.7')).toMatchObject({ ok: false, reason: 'throttled' });
    vi.setSystemTime(Date.now() + BUDGETS.pair.maxMs + 1);
    expect(await checkSignIn(store, 'other', PASSWORD, '10.0.0.7')).toMatchObject({ ok: true });
  });

  it('does not count an attempt the database could not check', async () => {
    const failing = vi.spyOn(store, 'verifyCredentials').mockRejectedValue(new Error('database down'));
    for (let round = 0; round < 10; round += 1)
      await expect(checkSignIn(store, 'victim', PASSWORD, '10.0.0.8')).rejects.toThrow('database down');
    failing.mockRestore();
    expect(await checkSignIn(store, 'victim', PASSWORD, '10.0.0.8')).toMatchObject({ ok: true });
  });
});
