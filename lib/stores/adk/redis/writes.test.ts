// Statehouse's writes to a Redis session store are the service's own: an
// append leaves exactly the keys the reproduction of adk-python's
// append_event leaves (lib/testing/adk-fixtures/redis.ts), moves the
// revision so an agent's older copy is refused by ADK's own check, keeps each
// key's TTL (or sets the agent's, given ?ttl=), and reading never touches a
// TTL or a key.
import { afterEach, describe, expect, it } from 'vitest';
import { isSessionServiceError } from '../../../session-service/errors';
import type { Event } from '../../../session-service/types';
import { APP, T0, type ScenarioEvent } from '../../../testing/adk-fixtures/scenario';
import { writeAdkFixture } from '../../../testing/adk-fixtures/stores';
import { appendAsPythonRedis, redisAvailable } from '../../../testing/adk-fixtures/redis';
import { openAdkStore, type AdkSessionStore } from '..';
import { eventToPython } from '../python/event-json';
import { connectRedis, type Redis } from './client';
import { parseRedisLocation } from './location';

const available = await redisAvailable();
const paris = { appName: APP, userId: 'alice', sessionId: 'trip-paris' };
const EVENT = {
  id: 'console-1',
  author: 'support',
  invocationId: 'inv-console',
  timestamp: T0 + 30.5,
  actions: { stateDelta: { destination: 'Nice', 'app:bookings': 4, 'user:tier': 'gold', 'temp:scratch': 1 } },
};

interface Opened {
  store: AdkSessionStore;
  client: Redis;
  prefix: string;
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0)) await clean();
});

async function open(layout: 'adk-python' | 'community', options = ''): Promise<Opened> {
  const written = await writeAdkFixture({ family: 'redis', layout });
  const separator = written.locator.includes('?') ? '&' : '?';
  const store = await openAdkStore(options ? `${written.locator}${separator}${options}` : written.locator);
  const location = parseRedisLocation(written.locator);
  const client = await connectRedis(location);
  const close = async () => {
    await store.close();
    client.disconnect();
    await written.remove();
  };
  cleanups.push(close);
  return { store, client, prefix: location.prefix ?? 'adk:session', close };
}

/** Every key under the prefix with its type, value and TTL: what a read must leave as it is. */
async function dumpKeys(client: Redis, pattern: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const key of (await client.keys(pattern)).sort()) {
    const type = await client.type(key);
    const value =
      type === 'hash' ? await client.hgetall(key) : type === 'set' ? (await client.smembers(key)).sort() : await client.get(key);
    out[key] = { type, value, ttl: await client.ttl(key) };
  }
  return out;
}

async function browse(store: AdkSessionStore): Promise<void> {
  await store.listApps();
  await store.listUsers(APP);
  await store.searchSessions({ appName: APP, limit: 50 });
  await store.getSession(paris);
  await store.getSessionTiers(paris);
  await store.getStateAsOf(paris, 2);
  await store.listEvents(paris);
  await store.getUserHistory(APP, 'alice');
  await store.find({ text: 'Lyon' } as never);
}

describe.skipIf(!available)('writes to an adk-python RedisSessionService store', () => {
  it('browsing changes no key, no value and no TTL', async () => {
    const { store, client, prefix } = await open('adk-python');
    await client.expire(`${prefix}:session:${APP}:alice:trip-paris`, 1000);
    const before = await dumpKeys(client, `${prefix}:*`);
    await browse(store);
    expect(await dumpKeys(client, `${prefix}:*`)).toEqual(before);
  });

  it('an append leaves exactly the keys adk-python’s append_event leaves for the same event', async () => {
    const mine = await open('adk-python');
    const theirs = await open('adk-python');
    const session = await mine.store.getSession(paris);
    const { event } = await mine.store.append(paris, EVENT, { expectedRevision: session?.revision ?? 0 });
    const dump = eventToPython(event as Event) as unknown as ScenarioEvent;
    await appendAsPythonRedis(theirs.client, theirs.prefix, APP, 'alice', 'trip-paris', dump);
    const rename = (keys: Record<string, unknown>, prefix: string) =>
      Object.fromEntries(Object.entries(keys).map(([key, value]) => [key.slice(prefix.length), value]));
    expect(rename(await dumpKeys(mine.client, `${mine.prefix}:*`), mine.prefix)).toEqual(
      rename(await dumpKeys(theirs.client, `${theirs.prefix}:*`), theirs.prefix),
    );
    const hash = await mine.client.hgetall(`${mine.prefix}:session:${APP}:alice:trip-paris`);
    expect(hash.revision).toBe('5');
    expect(hash.last_update_time).toBe(String(T0 + 30.5));
    expect(hash.state).toBe('{"destination": "Nice", "nights": 3}');
    expect(hash.events).not.toContain('temp:scratch');
  });

  it('refuses a stale append as ADK does, and its own append makes an older agent copy stale', async () => {
    const { store, client, prefix } = await open('adk-python');
    const loaded = await store.getSession(paris);
    const agentMarker = (await client.hget(`${prefix}:session:${APP}:alice:trip-paris`, 'revision')) ?? '';
    // The agent appends after the console loaded the session.
    await appendAsPythonRedis(client, prefix, APP, 'alice', 'trip-paris', {
      id: 'agent-1',
      invocation_id: 'inv-a',
      author: 'planner',
      timestamp: T0 + 40.25,
      actions: { state_delta: { nights: 4 } },
    });
    const refused = await store.append(paris, EVENT, { expectedRevision: loaded?.revision ?? 0 }).catch((error: unknown) => error);
    expect(isSessionServiceError(refused) && refused.code).toBe('STALE_SESSION');
    // Without an expected revision the event goes onto the agent's: its append and the console's are both kept.
    await store.append(paris, { ...EVENT, timestamp: T0 + 41.5 });
    const after = await client.hgetall(`${prefix}:session:${APP}:alice:trip-paris`);
    expect(Number(after.revision)).toBe(Number(agentMarker) + 2);
    expect((JSON.parse(after.events ?? '[]') as Array<{ id: string }>).map((e) => e.id).slice(-2)).toEqual(['agent-1', 'console-1']);
    expect(JSON.parse(after.state ?? '{}')).toEqual({ destination: 'Nice', nights: 4 });
  });

  it('keeps a session’s TTL on append, or sets the agent’s own given ?ttl=', async () => {
    const kept = await open('adk-python');
    const key = `${kept.prefix}:session:${APP}:alice:trip-paris`;
    await kept.client.expire(key, 1000);
    await kept.store.append(paris, EVENT);
    expect(await kept.client.ttl(key)).toBeGreaterThan(990);
    expect(await kept.client.ttl(key)).toBeLessThanOrEqual(1000);
    const set = await open('adk-python', 'ttl=500');
    const key2 = `${set.prefix}:session:${APP}:alice:trip-paris`;
    await set.store.append(paris, EVENT);
    expect(await set.client.ttl(key2)).toBeGreaterThan(490);
    expect(await set.client.ttl(`${set.prefix}:sessions_index:${APP}:alice`)).toBeGreaterThan(490);
  });

  it('edits a tier with HSET of json.dumps, deletes a session as delete_session does, forks as create_session and appends', async () => {
    const { store, client, prefix } = await open('adk-python');
    await store.editState({ appName: APP, scope: 'app', changes: { bookings: 5, region: 'eu' }, actor: 'ops', reason: 'test' });
    expect(await client.hgetall(`${prefix}:app_state:${APP}`)).toEqual({ bookings: '5', region: '"eu"' });
    const fork = await store.forkSession?.({ source: paris, atSeq: 2, sessionId: 'fork-1' }, { actor: 'ops', reason: 'test' } as never);
    expect(fork?.eventCount).toBe(2);
    const forked = await client.hgetall(`${prefix}:session:${APP}:alice:fork-1`);
    expect(forked.revision).toBe('3');
    expect(JSON.parse(forked.state ?? '{}')).toEqual({ destination: 'Paris' });
    expect(await client.sismember(`${prefix}:sessions_index:${APP}:alice`, 'fork-1')).toBe(1);
    await store.deleteSession({ ...paris, sessionId: 'fork-1' });
    expect(await client.exists(`${prefix}:session:${APP}:alice:fork-1`)).toBe(0);
    expect(await client.sismember(`${prefix}:sessions_index:${APP}:alice`, 'fork-1')).toBe(0);
    expect(await store.getSession({ ...paris, sessionId: 'fork-1' })).toBeNull();
    expect(store.refusalOf?.('prune')?.code).toBe('UNSUPPORTED');
  });
});

describe.skipIf(!available)('writes to an adk-python-community RedisSessionService store', () => {
  it('browsing changes no key, no value and no TTL', async () => {
    const { store, client } = await open('community');
    const before = await dumpKeys(client, '*');
    await browse(store);
    const after = await dumpKeys(client, '*');
    // TTLs count down in whole seconds while the test runs; a read never sets one again.
    for (const value of [...Object.values(before), ...Object.values(after)])
      (value as { ttl: number }).ttl = Math.sign((value as { ttl: number }).ttl);
    expect(after).toEqual(before);
  });

  it('an append saves the runner’s copy: the blob’s state with the hashes over it, the delta, the event; HSETs the shared keys; keeps the TTL', async () => {
    const { store, client } = await open('community');
    await client.hset(`app:${APP}`, 'region', '"eu"');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await store.append(paris, EVENT);
    const blob = JSON.parse((await client.get('session:trip-paris')) ?? '{}') as Record<string, unknown>;
    expect(Object.keys(blob)).toEqual(['id', 'app_name', 'user_id', 'state', 'events', 'last_update_time']);
    expect(blob.state).toEqual({
      destination: 'Nice',
      nights: 3,
      'app:bookings': 4,
      'app:region': 'eu',
      'user:home_city': 'Munich',
      'user:tier': 'gold',
    });
    expect(blob.last_update_time).toBe(T0 + 30.5);
    expect((blob.events as Array<{ id: string }>).map((e) => e.id)).toEqual(['e1', 'e2', 'e3', 'console-1']);
    expect(await client.hgetall(`app:${APP}`)).toEqual({ bookings: '4', region: '"eu"' });
    expect(await client.hget(`user:${APP}:alice`, 'tier')).toBe('"gold"');
    const ttl = await client.ttl('session:trip-paris');
    expect(ttl).toBeGreaterThan(3500);
    expect(ttl).toBeLessThanOrEqual(3600);
    const session = await store.getSession(paris);
    expect(session?.state).toMatchObject({ destination: 'Nice', 'app:region': 'eu', 'user:tier': 'gold' });
  });

  it('has no stale check, as the service has none; deletes as delete_session does', async () => {
    const { store, client } = await open('community');
    const loaded = await store.getSession(paris);
    await store.append(paris, EVENT);
    await store.append(paris, { ...EVENT, id: 'console-2', timestamp: T0 + 31.5 }, { expectedRevision: loaded?.revision ?? 0 });
    await store.deleteSession({ ...paris, sessionId: 'trip-rome' });
    expect(await client.exists('session:trip-rome')).toBe(0);
    expect(await client.sismember(`app::${APP}:alice`, 'trip-rome')).toBe(0);
  });
});
