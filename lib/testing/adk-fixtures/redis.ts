// Writes a Redis database exactly as adk-python's RedisSessionService
// (src/google/adk/integrations/redis/redis_session_service.py at
// google/adk-python@20c6c9e7) or adk-python-community's RedisSessionService
// (src/google/adk_community/sessions/redis_session_service.py at
// google/adk-python-community@06cc0577) does, for tests: Python cannot run
// here. The commands are those files' (create_session, then append_event
// for each event); values are serialised as they serialise them (json.dumps
// for the adk-python hash fields, orjson for the community blob).
//
// Each fixture gets a place of its own: adk-python's keys under a prefix no
// one else uses, the community's (fixed key names) in a Redis database a
// claim key reserves; `remove` deletes those keys alone (never FLUSHDB).
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { JsonObject, JsonValue } from '../../session-service/types';
import { pythonJsonDumps } from '../../stores/adk/python/json-dumps';
import type { ScenarioEvent, ScenarioSession } from './scenario';
import { extractStateDelta } from './python-sqlite';

export const REDIS_TEST_URL = process.env.STATEHOUSE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export type RedisFixtureLayout = 'adk-python' | 'community';

export interface RedisTarget {
  /** The store location to open (`redis://host:port/db[?prefix=...]`). */
  redisUrl: string;
}

/** Python's str(float). */
function floatText(value: number): string {
  return Number.isInteger(value) ? `${value}.0` : String(value);
}

/** adk-python's append_event for an event in its model_dump(mode="json", exclude_none=True) form: WATCH, HGETALL, then MULTI/HSETs/EXEC. */
export async function appendAsPythonRedis(
  client: Redis,
  prefix: string,
  appName: string,
  userId: string,
  sessionId: string,
  event: ScenarioEvent,
) {
  const key = `${prefix}:session:${appName}:${userId}:${sessionId}`;
  await client.watch(key);
  const stored = await client.hgetall(key);
  const deltas = extractStateDelta(event.actions.state_delta);
  const state = { ...(JSON.parse(stored.state ?? '{}') as JsonObject), ...deltas.session };
  const events = [...(JSON.parse(stored.events ?? '[]') as JsonValue[]), event as JsonObject];
  const multi = client.multi();
  multi.hset(key, {
    state: pythonJsonDumps(state),
    events: pythonJsonDumps(events),
    last_update_time: floatText(event.timestamp),
    revision: String(Number(stored.revision ?? '0') + 1),
  });
  const dumps = (tier: JsonObject) => Object.fromEntries(Object.entries(tier).map(([k, v]) => [k, pythonJsonDumps(v as JsonValue)]));
  if (Object.keys(deltas.app).length > 0) multi.hset(`${prefix}:app_state:${appName}`, dumps(deltas.app));
  if (Object.keys(deltas.user).length > 0) multi.hset(`${prefix}:user_state:${appName}:${userId}`, dumps(deltas.user));
  if ((await multi.exec()) === null) throw new Error('fixture: the session changed while it was written');
}

/** redis_session_service.py's create_session then append_event per event, adk-python's. */
async function writePython(client: Redis, prefix: string, appName: string, sessions: ScenarioSession[]): Promise<void> {
  const sessionKey = (user: string, id: string) => `${prefix}:session:${appName}:${user}:${id}`;
  for (const session of sessions) {
    const key = sessionKey(session.userId, session.sessionId);
    // create_session with no state: the session hash (revision 1), both index SADDs; no TTL (session_ttl_seconds=None).
    await client.hset(key, {
      state: pythonJsonDumps({}),
      events: pythonJsonDumps([]),
      last_update_time: floatText(session.created),
      revision: '1',
    });
    await client.sadd(`${prefix}:sessions_index:${appName}:${session.userId}`, session.sessionId);
    await client.sadd(`${prefix}:users_index:${appName}`, session.userId);
    for (const event of session.events) await appendAsPythonRedis(client, prefix, appName, session.userId, session.sessionId, event);
  }
}

/** Every field of adk-python's Event that model_dump() gives as null when unset (events/event.py, models/llm_response.py). */
const EVENT_FIELDS = [
  'model_version',
  'content',
  'grounding_metadata',
  'partial',
  'turn_complete',
  'finish_reason',
  'error_code',
  'error_message',
  'interrupted',
  'custom_metadata',
  'usage_metadata',
  'live_session_resumption_update',
  'input_transcription',
  'output_transcription',
  'avg_logprobs',
  'logprobs_result',
  'cache_metadata',
  'citation_metadata',
  'invocation_id',
  'author',
  'actions',
  'long_running_tool_ids',
  'branch',
  'id',
  'timestamp',
] as const;

/** Event.model_dump() (python mode): every field, unset ones null. */
function modelDump(event: ScenarioEvent): JsonObject {
  const out: JsonObject = {};
  for (const field of EVENT_FIELDS) out[field] = (event as JsonObject)[field] ?? null;
  for (const [key, value] of Object.entries(event)) if (!(key in out)) out[key] = value as JsonValue;
  return out;
}

/** orjson.dumps: compact, UTF-8 as is; floats keep a fraction (timestamps, last_update_time). */
function orjsonBlob(session: JsonObject): string {
  const events = (session.events as JsonObject[]).map(
    (event) =>
      `{${Object.entries(event)
        .map(([k, v]) => `${JSON.stringify(k)}:${k === 'timestamp' ? floatText(v as number) : JSON.stringify(v)}`)
        .join(',')}}`,
  );
  return `{"id":${JSON.stringify(session.id)},"app_name":${JSON.stringify(session.app_name)},"user_id":${JSON.stringify(session.user_id)},"state":${JSON.stringify(session.state)},"events":[${events.join(',')}],"last_update_time":${floatText(session.last_update_time as number)}}`;
}

/** The community service's create_session then append_event per event (expire=DEFAULT_EXPIRATION, 3600 s). */
async function writeCommunity(client: Redis, appName: string, sessions: ScenarioSession[], expire: number): Promise<void> {
  const app: JsonObject = {};
  const users = new Map<string, JsonObject>();
  for (const session of sessions) {
    const setKey = `app::${appName}:${session.userId}`;
    const key = `session:${session.sessionId}`;
    const blob: JsonObject = {
      id: session.sessionId,
      app_name: appName,
      user_id: session.userId,
      state: {},
      events: [],
      last_update_time: session.created,
    };
    await client.multi().sadd(setKey, session.sessionId).expire(setKey, expire).set(key, orjsonBlob(blob), 'EX', expire).exec();
    // The runner's copy, as get_session returns it: the blob's state with the app and user hashes laid over it.
    const user = users.get(session.userId) ?? {};
    users.set(session.userId, user);
    const state: JsonObject = { ...(blob.state as JsonObject) };
    for (const [k, v] of Object.entries(app)) state[`app:${k}`] = v as JsonValue;
    for (const [k, v] of Object.entries(user)) state[`user:${k}`] = v as JsonValue;
    const events: JsonObject[] = [];
    for (const event of session.events) {
      // BaseSessionService.append_event: state[k] = v for each key but temp:, the event appended; then the pipeline.
      for (const [k, v] of Object.entries(event.actions.state_delta)) if (!k.startsWith('temp:')) state[k] = v as JsonValue;
      events.push(modelDump(event));
      const multi = client.multi();
      multi.expire(setKey, expire);
      for (const [k, v] of Object.entries(event.actions.state_delta)) {
        if (k.startsWith('app:')) {
          app[k.slice(4)] = v as JsonValue;
          multi.hset(`app:${appName}`, k.slice(4), JSON.stringify(v));
        }
        if (k.startsWith('user:')) {
          user[k.slice(5)] = v as JsonValue;
          multi.hset(`user:${appName}:${session.userId}`, k.slice(5), JSON.stringify(v));
        }
      }
      multi.set(key, orjsonBlob({ ...blob, state, events, last_update_time: event.timestamp }), 'EX', expire);
      await multi.exec();
    }
  }
}

const CLAIM_KEY = 'statehouse-fixture-claim';

/** A database of its own for a community fixture: the first of 1-15 that is empty, claimed with SET NX so parallel tests never share one. */
async function claimDatabase(base: string): Promise<{ client: Redis; db: number }> {
  for (let db = 1; db < 16; db++) {
    const client = new Redis(`${base}/${db}`, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    if ((await client.dbsize()) === 0 && (await client.set(CLAIM_KEY, randomUUID(), 'NX')) === 'OK') return { client, db };
    client.disconnect();
  }
  throw new Error(`No empty Redis database at ${base} for a community fixture (databases 1-15 are in use).`);
}

/** Deletes the keys that match, a SCAN page at a time. */
async function deleteMatching(client: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    if (keys.length > 0) await client.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/** An empty Redis database of the test's own, and its release: every key in it deleted (it was empty when claimed), never FLUSHDB. */
export async function claimRedisDatabase(): Promise<{ url: string; client: Redis; release(): Promise<void> }> {
  const base = REDIS_TEST_URL.replace(/\/\d*$/, '');
  const { client, db } = await claimDatabase(base);
  return {
    url: `${base}/${db}`,
    client,
    release: async () => {
      await deleteMatching(client, '*');
      client.disconnect();
    },
  };
}

export interface WrittenRedisFixture {
  target: RedisTarget;
  remove(): Promise<void>;
}

/**
 * Writes the scenario the given layout's way. `into` names the place
 * (`npm run adk:fixture` takes a URL with ?prefix=); otherwise a fresh one.
 */
export async function writeRedisScenario(
  layout: RedisFixtureLayout,
  appName: string,
  sessions: ScenarioSession[],
  into?: string,
): Promise<WrittenRedisFixture> {
  const base = REDIS_TEST_URL.replace(/\/\d*$/, '');
  if (layout === 'adk-python') {
    const url = new URL(into ?? `${base}/0?prefix=statehouse_test_${randomUUID().slice(0, 8)}`);
    const prefix = url.searchParams.get('prefix') ?? 'adk:session';
    const bare = new URL(url);
    bare.search = '';
    const client = new Redis(bare.toString(), { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    try {
      await writePython(client, prefix, appName, sessions);
    } finally {
      client.disconnect();
    }
    return {
      target: { redisUrl: url.toString().replace(/%3A/g, ':') },
      remove: async () => {
        const cleaner = new Redis(bare.toString(), { lazyConnect: true, maxRetriesPerRequest: 1 });
        await cleaner.connect();
        await deleteMatching(cleaner, `${prefix.replace(/[*?[\]\\]/g, '\\$&')}:*`);
        cleaner.disconnect();
      },
    };
  }
  const { client, db } = into ? { client: new Redis(into), db: Number(new URL(into).pathname.slice(1) || 0) } : await claimDatabase(base);
  try {
    await writeCommunity(client, appName, sessions, 3600);
  } finally {
    client.disconnect();
  }
  return {
    target: { redisUrl: `${base}/${db}` },
    remove: async () => {
      if (into) return;
      const cleaner = new Redis(`${base}/${db}`, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await cleaner.connect();
      // The database was empty when claimed: every key in it is this fixture's (and the store's writes into it).
      for (const pattern of ['session:*', 'app:*', 'user:*']) await deleteMatching(cleaner, pattern);
      await cleaner.del(CLAIM_KEY);
      cleaner.disconnect();
    },
  };
}

/** Whether the test Redis answers (always in CI, which starts it). */
export async function redisAvailable(): Promise<boolean> {
  const client = new Redis(REDIS_TEST_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
