// Which Redis layout a database holds, told from its keys; what cannot be told is refused with what was found.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimRedisDatabase, redisAvailable } from '../../../testing/adk-fixtures/redis';
import { CannotReadStoreError } from '../detect';
import { openAdkStore } from '..';

const available = await redisAvailable();

describe.skipIf(!available)('Redis layout detection', () => {
  let db: Awaited<ReturnType<typeof claimRedisDatabase>>;
  beforeEach(async () => {
    db = await claimRedisDatabase();
  });
  afterEach(async () => {
    await db.release();
  });

  const refusal = (location: string) => openAdkStore(location).catch((error: unknown) => error);

  it('refuses a database with neither layout, naming what it found', async () => {
    await db.client.set('cache:homepage', '<html>');
    const error = await refusal(db.url);
    expect(error).toBeInstanceOf(CannotReadStoreError);
    expect(String(error)).toMatch(
      /no session keys of adk-python's RedisSessionService.*adk-python-community's.*Found 2 keys, such as .*cache:homepage/,
    );
  });

  it('tells adk-python (a hash under the prefix) from the community layout (a session:{id} string)', async () => {
    await db.client.hset('adk:session:session:app1:u1:s1', { state: '{}', events: '[]', last_update_time: '1.0', revision: '1' });
    const python = await openAdkStore(db.url);
    expect(python.info.family).toBe('adk-python-redis');
    await python.close();
    await db.client.set(
      'session:s2',
      JSON.stringify({ id: 's2', app_name: 'app1', user_id: 'u1', state: {}, events: [], last_update_time: 1 }),
    );
    expect(String(await refusal(db.url))).toMatch(/holds keys of both .* \?layout=adk-python or \?layout=community/);
    const community = await openAdkStore(`${db.url}?layout=community`);
    expect(community.info.family).toBe('adk-community-redis');
    expect((await community.listApps()).map((app) => app.appName)).toEqual(['app1']);
    await community.close();
  });

  it('a session:{id} key that is a hash is not the community layout', async () => {
    await db.client.hset('session:s1', { a: '1' });
    expect(await refusal(db.url)).toBeInstanceOf(CannotReadStoreError);
  });

  it('finds adk-python keys under another key_prefix only when told it, and refuses a prefix with none', async () => {
    await db.client.sadd('myagent:sessions_index:app1:u1', 's1');
    await db.client.hset('myagent:session:app1:u1:s1', { state: '{"k":1}', events: '[]', last_update_time: '5.0', revision: '1' });
    expect(await refusal(db.url)).toBeInstanceOf(CannotReadStoreError);
    const store = await openAdkStore(`${db.url}?prefix=myagent`);
    expect((await store.getSession({ appName: 'app1', userId: 'u1', sessionId: 's1' }))?.state).toEqual({ k: 1 });
    await store.close();
    expect(String(await refusal(`${db.url}?prefix=other`))).toMatch(/no keys of .* under prefix=other/);
  });

  it('refuses options it does not know', async () => {
    expect(String(await refusal(`${db.url}?prefx=a`))).toMatch(/prefx= is not an option/);
  });
});
