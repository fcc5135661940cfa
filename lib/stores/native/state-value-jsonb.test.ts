// A nested or typed state filter over an app's 100,000 sessions on
// PostgreSQL spent most of its time casting each state row's JSON text to
// jsonb (a filter on `profile.age` alone: 212 ms p50 at load 8). The value is
// kept as jsonb beside the text (migration state_value_jsonb), once per
// write, and the filters read it.
import { sqltag as sql } from '@prisma/client/runtime/client';
import { describe, expect, it } from 'vitest';
import { testProviders } from '../../testing/databases';
import { uniqueName } from '../../testing/factories';
import { useTestDatabase } from '../../testing/use-test-database';

const providers = (await testProviders()).filter((provider) => provider === 'postgresql');

describe.each(providers)('the state value kept as jsonb on %s', (provider) => {
  const database = useTestDatabase(provider);

  async function stored(appName: string, sessionId: string, key: string): Promise<unknown> {
    const [row] = await database.db.client.$queryRaw<{ j: string | null }[]>(
      sql`SELECT CAST(ss.value_jsonb AS TEXT) AS j FROM session_state ss JOIN sessions s ON s.pk = ss.session_pk
          WHERE s.app_name = ${appName} AND s.id = ${sessionId} AND ss.key = ${key}`,
    );
    return row?.j == null ? null : JSON.parse(row.j);
  }

  it('follows every write of the value, and stays null for a value over 8 KiB', async () => {
    const appName = uniqueName('jsonb');
    const ref = { appName, userId: 'u', sessionId: 's' };
    await database.service.createSession({ ...ref, state: { profile: { age: 80 }, big: { blob: 'x'.repeat(9000), n: 5 } } });
    expect(await stored(appName, 's', 'profile')).toEqual({ age: 80 });
    expect(await stored(appName, 's', 'big')).toBeNull();
    await database.service.append(ref, { author: 'agent', actions: { stateDelta: { profile: { age: 81 } } } });
    expect(await stored(appName, 's', 'profile')).toEqual({ age: 81 });
    // The large value is still found, by casting its text as before.
    const found = await database.service.searchSessions({ appName, filters: [{ key: 'big.n', op: '>', value: 3 }] });
    expect(found.items.map((item) => item.id)).toEqual(['s']);
  });

  it('is what the filters read', async () => {
    const appName = uniqueName('jsonb');
    await database.service.createSession({ appName, userId: 'u', sessionId: 'kept', state: { profile: { age: 80 } } });
    // Set apart from its text by hand: a filter that still cast the text would not see it.
    await database.db.client.$executeRaw(
      sql`UPDATE session_state SET value_jsonb = CAST('{"age": 20}' AS jsonb)
          WHERE key = 'profile' AND session_pk = (SELECT pk FROM sessions WHERE app_name = ${appName})`,
    );
    const young = await database.service.searchSessions({ appName, filters: [{ key: 'profile.age', op: '<', value: 30 }] });
    expect(young.items.map((item) => item.id)).toEqual(['kept']);
  });
});
