// The one-call writes and the session read are prepared once per connection
// on PostgreSQL (lib/db/prepared.ts): sent unnamed, every call had the server
// parse, analyse and plan its text again, which for the session read cost
// about as much as running it.
import { describe, expect, it } from 'vitest';
import { testProviders } from '../../testing/databases';
import { uniqueName } from '../../testing/factories';
import { useTestDatabase } from '../../testing/use-test-database';

const providers = (await testProviders()).filter((provider) => provider === 'postgresql');

describe.each(providers)('the native store on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('prepares a create, an append and a session read, each under one name whatever its values', async () => {
    const appName = uniqueName('prepared');
    for (const sessionId of ['s1', 's2']) {
      const ref = { appName, userId: 'u', sessionId };
      await database.service.createSession({ ...ref, state: { topic: sessionId, 'user:plan': 'pro' } });
      await database.service.append(ref, { author: 'agent', actions: { stateDelta: { turn: 1, 'app:n': 2 } } });
      await database.service.getSession(ref, { numRecentEvents: 20 });
    }
    // One after the other, the store's statements all ran on the pool's one connection, which answers this too.
    const rows = await database.db.client.$queryRaw<
      { statement: string }[]
    >`SELECT statement FROM pg_prepared_statements ORDER BY prepare_time`;
    const kinds = rows.map(({ statement }) =>
      statement.includes('statehouse_create(')
        ? 'create'
        : statement.includes('statehouse_append(')
          ? 'append'
          : statement.includes('WITH s AS')
            ? 'read'
            : statement,
    );
    expect(kinds).toEqual(['create', 'append', 'read']);
  });
});
