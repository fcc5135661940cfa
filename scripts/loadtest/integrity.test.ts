// checkIntegrity finds each kind of damage it is meant to find (so the crash
// test and the load test can fail), and none in a healthy database.
import { sqltag as sql } from '@prisma/client/runtime/client';
import { describe, expect, it } from 'vitest';
import { testProviders } from '../../lib/testing/databases';
import { useTestDatabase } from '../../lib/testing/use-test-database';
import { checkIntegrity } from './integrity';
import { appendEvent } from '../../lib/session-service/append';

const providers = await testProviders();

describe.each(providers)('checkIntegrity on %s', (provider) => {
  const database = useTestDatabase(provider);
  let app = '';
  let counter = 0;

  /** A healthy app: two sessions of one user, events touching all three tiers. */
  async function healthy(): Promise<{ pk: number }> {
    counter += 1;
    app = `integrity-${counter}`;
    const a = await database.service.createSession({ appName: app, userId: 'u', sessionId: 'a', state: { 'user:x': 0 } });
    const b = await database.service.createSession({ appName: app, userId: 'u', sessionId: 'b' });
    for (let n = 1; n <= 3; n += 1) {
      await appendEvent(database.service, a, { author: 'x', actions: { stateDelta: { n, 'user:x': n, 'app:y': n, 'temp:t': n } } });
      await appendEvent(database.service, b, { author: 'x', actions: { stateDelta: { m: n, 'user:x': -n } } });
    }
    await database.service.editState({ scope: 'user', appName: app, userId: 'u', changes: { x: 'edited' }, actor: 'ops', reason: 'r' });
    const rows = await database.db.client.$queryRaw<{ pk: unknown }[]>(sql`SELECT pk FROM sessions WHERE app_name = ${app} AND id = 'a'`);
    return { pk: Number(rows[0]?.pk) };
  }

  const problems = async () => (await checkIntegrity(database.db.client, app)).problems;

  it('passes a healthy app', async () => {
    await healthy();
    const report = await checkIntegrity(database.db.client, app);
    expect(report).toMatchObject({ sessions: 2, events: 6, problems: [], problemCount: 0 });
  });

  it('finds an event without its history', async () => {
    await healthy();
    await database.db.client.$executeRaw(sql`DELETE FROM state_changes WHERE app_name = ${app} AND event_seq = 2 AND scope = 'app'`);
    expect(await problems()).toEqual([
      'session a event 2: 3 keys in its delta but 2 history rows',
      'session a event 2: no history row for app:y',
    ]);
  });

  it('finds a gap in the sequence and history naming a missing event', async () => {
    const { pk } = await healthy();
    await database.db.client.$executeRaw(sql`DELETE FROM events WHERE session_pk = ${pk} AND seq = 2`);
    const found = await problems();
    expect(found).toContain('session a: last_seq 3 but events numbered 1..3 (2)');
    expect(found.some((p) => p.includes('name a missing event'))).toBe(true);
  });

  it('finds a tier that disagrees with its history, and a stored temp: key', async () => {
    const { pk } = await healthy();
    await database.db.client.$executeRaw(sql`UPDATE session_state SET value = '99' WHERE session_pk = ${pk} AND key = 'n'`);
    await database.db.client.$executeRaw(
      sql`UPDATE events SET data = REPLACE(data, '"stateDelta":{', '"stateDelta":{"temp:t":1,') WHERE session_pk = ${pk} AND seq = 1`,
    );
    const found = await problems();
    expect(found).toContain(`session ["u","a"] n: holds 99, its history says 3`);
    expect(found).toContain('session a event 1: stored a temp: key (temp:t)');
  });
});
