// Accounts, sign-in sessions and API tokens against real databases.
import BetterSqlite3 from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { sqliteFilePath } from '../db';
import { testProviders } from '../testing/databases';
import { useTestDatabase } from '../testing/use-test-database';
import { resolveAuthConfig } from './config';
import { authenticate, type Credentials } from './principal';
import { hashSecret } from './secrets';
import { AccountStore } from './store';

const providers = await testProviders();
const PASSWORD = 'correct horse battery';
const protectedConfig = resolveAuthConfig({ auth: 'protected', databaseUrl: 'file:x.db', trustedHeader: 'X-Forwarded-User' });
const noCredentials: Credentials = { authorization: null, sessionCookie: undefined, proxyUser: null };

describe.each(providers)('accounts on %s', (provider) => {
  const database = useTestDatabase(provider);
  let store: AccountStore;

  beforeAll(() => {
    store = new AccountStore(database.db.client);
  });

  it('creates accounts once, with a checked name and password', async () => {
    const account = await store.createAccount({ name: 'ada@example.com', password: PASSWORD, role: 'support' });
    expect(account).toMatchObject({ name: 'ada@example.com', role: 'support', disabled: false });
    await expect(store.createAccount({ name: 'ada@example.com', password: PASSWORD, role: 'admin' })).rejects.toMatchObject({
      code: 'ALREADY_EXISTS',
    });
    await expect(store.createAccount({ name: 'bob', password: 'short', role: 'viewer' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: 'Password: at least 12 characters.',
    });
    await expect(store.createAccount({ name: '<script>', password: PASSWORD, role: 'viewer' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect((await store.listAccounts()).map((a) => a.name)).toEqual(['ada@example.com']);
  });

  it('never stores a password or secret in the clear', async () => {
    await store.createAccount({ name: 'cleartext-check', password: PASSWORD, role: 'viewer' });
    const account = await store.verifyCredentials('cleartext-check', PASSWORD);
    const { secret: session } = await store.startSession(account!.id, 60);
    const { secret: token } = await store.createToken('cleartext-check', 'ci');
    const rows = await database.db.client.$queryRaw<Record<string, unknown>[]>`
      SELECT a.password_hash, s.token_hash AS session_hash, t.token_hash
      FROM accounts a JOIN login_sessions s ON s.account_id = a.id JOIN api_tokens t ON t.account_id = a.id
      WHERE a.name = ${'cleartext-check'}`;
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain(session);
    expect(stored).not.toContain(token);
    expect(rows[0]).toMatchObject({ session_hash: hashSecret(session), token_hash: hashSecret(token) });
    expect(String(rows[0]?.password_hash)).toMatch(/^scrypt\$32768\$8\$1\$/);
  });

  it('verifies passwords, refusing wrong ones, unknown names and disabled accounts', async () => {
    await store.createAccount({ name: 'carol', password: PASSWORD, role: 'viewer' });
    expect(await store.verifyCredentials('carol', PASSWORD)).toMatchObject({ name: 'carol' });
    expect(await store.verifyCredentials('carol', `${PASSWORD}!`)).toBeNull();
    expect(await store.verifyCredentials('nobody', PASSWORD)).toBeNull();
    await store.setDisabled('carol', true);
    expect(await store.verifyCredentials('carol', PASSWORD)).toBeNull();
    await store.setDisabled('carol', false);
    expect(await store.verifyCredentials('carol', PASSWORD)).toMatchObject({ name: 'carol' });
  });

  it('authenticates sign-in sessions until they expire, end, or the account is disabled', async () => {
    const account = await store.createAccount({ name: 'dave', password: PASSWORD, role: 'support' });
    const cookie = async (secret: string) => authenticate({ ...noCredentials, sessionCookie: secret }, store, protectedConfig);

    const { secret } = await store.startSession(account.id, 3600);
    expect(await cookie(secret)).toEqual({ name: 'dave', role: 'support', via: 'session' });
    await store.endSession(secret);
    expect(await cookie(secret)).toBeNull();

    const { secret: expired } = await store.startSession(account.id, -1);
    expect(await cookie(expired)).toBeNull();

    const { secret: live } = await store.startSession(account.id, 3600);
    await store.setDisabled('dave', true);
    expect(await cookie(live)).toBeNull();
    await store.setDisabled('dave', false);
    expect(await cookie(live)).toBeNull(); // disabling ended it for good

    const { secret: beforeReset } = await store.startSession(account.id, 3600);
    await store.setPassword('dave', 'a whole new password');
    expect(await cookie(beforeReset)).toBeNull();
    expect(await store.verifyCredentials('dave', 'a whole new password')).toMatchObject({ name: 'dave' });
  });

  it('authenticates API tokens until revoked, and a bad bearer never falls back to the cookie', async () => {
    const account = await store.createAccount({ name: 'erin', password: PASSWORD, role: 'admin' });
    const { secret, token } = await store.createToken('erin', 'agent-prod');
    expect(token).toMatchObject({ accountName: 'erin', label: 'agent-prod', revoked: false, lastUseTime: null });
    const bearer = (value: string, sessionCookie?: string) =>
      authenticate({ ...noCredentials, authorization: value, sessionCookie }, store, protectedConfig);

    expect(await bearer(`Bearer ${secret}`)).toEqual({ name: 'erin', role: 'admin', via: 'token' });
    await store.settled();
    expect((await store.listTokens('erin'))[0]?.lastUseTime).toEqual(expect.any(Number));

    const { secret: cookie } = await store.startSession(account.id, 3600);
    expect(await bearer('Bearer sht_not-a-real-token-at-all-but-long-enough-000000', cookie)).toBeNull();
    expect(await bearer(`Basic ${secret}`, cookie)).toBeNull();

    expect(await store.revokeToken(token.id)).toMatchObject({ revoked: true });
    expect(await bearer(`Bearer ${secret}`)).toBeNull();
    await expect(store.revokeToken(999_999)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(store.createToken('nobody', 'x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('trusts the proxy header only when configured, and only for enabled accounts', async () => {
    await store.createAccount({ name: 'frank', password: PASSWORD, role: 'viewer' });
    expect(await authenticate({ ...noCredentials, proxyUser: 'frank' }, store, protectedConfig)).toEqual({
      name: 'frank',
      role: 'viewer',
      via: 'proxy',
    });
    expect(await authenticate({ ...noCredentials, proxyUser: 'nobody' }, store, protectedConfig)).toBeNull();
    await store.setDisabled('frank', true);
    expect(await authenticate({ ...noCredentials, proxyUser: 'frank' }, store, protectedConfig)).toBeNull();
    expect(await authenticate(noCredentials, store, protectedConfig)).toBeNull();
  });

  it('keeps an OpenID person’s account by issuer and subject: role from each sign-in, no access ends their sessions, no takeover', async () => {
    const person = { externalId: 'https://id.example.com/ person-7', name: 'grace@example.com' };
    const first = await store.signInExternal({ ...person, role: 'viewer' });
    expect(first).toMatchObject({ name: 'grace@example.com', role: 'viewer' });
    const { secret } = await store.startSession(first?.id ?? -1, 3600);
    expect(await store.signInExternal({ ...person, role: 'admin' })).toMatchObject({ id: first?.id, role: 'admin' });
    expect(await store.sessionAccount(secret)).toMatchObject({ role: 'admin' });
    // Nobody knows the password it was given.
    expect(await store.verifyCredentials('grace@example.com', '')).toBeNull();
    expect(await store.signInExternal({ ...person, role: null })).toBeNull();
    expect(await store.sessionAccount(secret)).toBeNull();
    await store.createAccount({ name: 'local-lin', password: PASSWORD, role: 'admin' });
    await expect(
      store.signInExternal({ externalId: 'https://id.example.com/ lin', name: 'local-lin', role: 'admin' }),
    ).rejects.toMatchObject({
      code: 'ALREADY_EXISTS',
    });
  });

  it('changes roles', async () => {
    await store.createAccount({ name: 'grace', password: PASSWORD, role: 'viewer' });
    expect(await store.setRole('grace', 'admin')).toMatchObject({ role: 'admin' });
    await expect(store.setRole('nobody', 'admin')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('API tokens while another process holds the SQLite write lock', () => {
  const database = useTestDatabase('sqlite');

  it('authenticate at once, and record their last use once the lock is gone', async () => {
    const store = new AccountStore(database.db.client);
    await store.createAccount({ name: 'agent', password: PASSWORD, role: 'viewer' });
    const { secret } = await store.createToken('agent', 'busy');
    const other = new BetterSqlite3(sqliteFilePath(database.url));
    try {
      other.exec('BEGIN IMMEDIATE');
      const started = performance.now();
      expect(await authenticate({ ...noCredentials, authorization: `Bearer ${secret}` }, store, protectedConfig)).toMatchObject({
        name: 'agent',
      });
      expect(performance.now() - started).toBeLessThan(1_000);
      other.exec('COMMIT');
    } finally {
      other.close();
    }
    await store.settled();
    expect((await store.listTokens('agent'))[0]?.lastUseTime).toEqual(expect.any(Number));
  });
});
