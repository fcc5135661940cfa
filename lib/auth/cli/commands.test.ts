// `npm run accounts` commands against a real SQLite database.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../testing/use-test-database';
import { AccountStore } from '../store';
import { runAccountsCommand, UsageError, type CliIo } from './commands';

describe('npm run accounts', () => {
  const database = useTestDatabase('sqlite');
  let store: AccountStore;
  let printed: string[];
  let passwords: string[];
  const io: CliIo = {
    print: (line) => printed.push(line),
    readPassword: async () => passwords.shift() ?? '',
  };
  const run = (...argv: string[]) => {
    printed = [];
    return runAccountsCommand(argv, store, io);
  };

  beforeAll(() => {
    store = new AccountStore(database.db.client);
  });

  it('creates an account after asking for the password twice', async () => {
    passwords = ['a long enough password', 'a long enough password'];
    await run('create', 'ops', '--role', 'admin');
    expect(printed).toEqual(['Created ops (admin).']);
    expect(await store.verifyCredentials('ops', 'a long enough password')).toMatchObject({ role: 'admin' });
  });

  it('changes nothing when the two passwords differ', async () => {
    passwords = ['a long enough password', 'another long password'];
    await expect(run('create', 'mismatch', '--role', 'viewer')).rejects.toThrow('The two passwords differ');
    expect(await store.findAccount('mismatch')).toBeNull();
  });

  it('explains bad usage', async () => {
    await expect(run('create', 'x')).rejects.toThrow(new UsageError('The role must be one of viewer, support, admin.'));
    await expect(run('create', 'x', '--role', 'root')).rejects.toThrow('not "root"');
    await expect(run('frobnicate')).rejects.toThrow('Unknown command "frobnicate".');
    await expect(run('token', 'revoke', 'abc')).rejects.toThrow('A token id is a number');
  });

  it('lists, changes roles, disables and enables', async () => {
    await run('set-role', 'ops', 'support');
    expect(printed).toEqual(['ops\tsupport']);
    await run('disable', 'ops');
    expect(printed).toEqual(['ops\tsupport\tdisabled']);
    await run('enable', 'ops');
    await run('list');
    expect(printed).toEqual(['ops\tsupport']);
  });

  it('creates a token shown once, lists and revokes it', async () => {
    await run('token', 'create', 'ops', '--label', 'ci');
    expect(printed[0]).toMatch(/^Token \d+ for ops \(ci\)\. It is shown only now/);
    const secret = printed[1] ?? '';
    expect(await store.tokenAccount(secret)).toMatchObject({ name: 'ops' });

    await run('token', 'list');
    expect(printed).toHaveLength(1);
    expect(printed[0]).not.toContain(secret);
    const id = printed[0]?.split('\t')[0] ?? '';

    await run('token', 'revoke', id);
    expect(printed[0]).toMatch(/^Revoked: .*\trevoked$/);
    expect(await store.tokenAccount(secret)).toBeNull();
  });
});
