// API tokens verified without a database round trip per request, and a
// revocation on one server refused on another within a second: two account
// stores, each on its own connection (as two servers are), over one database.
import type { Sql } from '@prisma/client/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db';
import type { SqlClient } from '../db/sql';
import { testProviders } from '../testing/databases';
import { useTestDatabase } from '../testing/use-test-database';
import { AccountStore } from './store';
import { EPOCH_CHECK_MS } from './verified-tokens';

const providers = await testProviders();
const PASSWORD = 'correct horse battery';

/** The client, counting the statements sent through it. */
function counting(client: SqlClient): { client: SqlClient; statements: () => number } {
  let statements = 0;
  const counted: SqlClient = {
    ...client,
    $queryRaw: <T>(query: Sql) => {
      statements++;
      return client.$queryRaw<T>(query);
    },
    $executeRaw: (query: Sql) => {
      statements++;
      return client.$executeRaw(query);
    },
    $transaction: (fn, options) => client.$transaction(fn, options),
  };
  return { client: counted, statements: () => statements };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(providers)('verified tokens on %s', (provider) => {
  const database = useTestDatabase(provider);
  let other: Database;
  let serverA: AccountStore;
  let serverB: AccountStore;
  let statementsOfB: () => number;

  beforeAll(async () => {
    other = await openDatabase(database.url);
    serverA = new AccountStore(database.db.client);
    const countedB = counting(other.client);
    serverB = new AccountStore(countedB.client);
    statementsOfB = countedB.statements;
  });

  afterAll(async () => {
    await serverB.settled();
    await other.close();
  });

  it('verifies a known token again without a statement', async () => {
    await serverA.createAccount({ name: 'agent', password: PASSWORD, role: 'support' });
    const { secret } = await serverA.createToken('agent', 'ci');
    expect(await serverB.tokenAccount(secret)).toMatchObject({ name: 'agent', role: 'support' });
    await serverB.settled();
    const before = statementsOfB();
    for (let i = 0; i < 20; i++) expect(await serverB.tokenAccount(secret)).toMatchObject({ name: 'agent' });
    // At most one epoch read if a second went by meanwhile (a loaded machine); never one per request.
    expect(statementsOfB() - before).toBeLessThanOrEqual(1);
  });

  it('refuses on one server a token revoked on another, a second later at the latest', async () => {
    const { secret, token } = await serverA.createToken('agent', 'revoked');
    expect(await serverB.tokenAccount(secret)).toMatchObject({ name: 'agent' });
    await serverA.revokeToken(token.id);
    await sleep(EPOCH_CHECK_MS + 5);
    expect(await serverB.tokenAccount(secret)).toBeNull();
  });

  it('drops what a disabled account, a new role or a deleted account withdrew', async () => {
    await serverA.createAccount({ name: 'ops', password: PASSWORD, role: 'admin' });
    const { secret } = await serverA.createToken('ops', 'ops');
    expect(await serverB.tokenAccount(secret)).toMatchObject({ role: 'admin' });
    await serverA.setRole('ops', 'viewer');
    await sleep(EPOCH_CHECK_MS + 5);
    expect(await serverB.tokenAccount(secret)).toMatchObject({ role: 'viewer' });
    await serverA.setDisabled('ops', true);
    await sleep(EPOCH_CHECK_MS + 5);
    expect(await serverB.tokenAccount(secret)).toBeNull();
    await serverA.setDisabled('ops', false);
    expect(await serverB.tokenAccount(secret)).toMatchObject({ role: 'viewer' });
    await serverA.deleteAccount('ops');
    await sleep(EPOCH_CHECK_MS + 5);
    expect(await serverB.tokenAccount(secret)).toBeNull();
  });
});
