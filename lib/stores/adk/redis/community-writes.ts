// adk-python-community RedisSessionService's writes (redis_session_service.py
// at google/adk-python-community@06cc0577; 0624450a, May 2026, also strips
// temp: keys from the stored state). append_event saves the whole session
// as the runner's copy holds it after BaseSessionService.append_event: the
// state get_session gave it (the blob's, the app and user hashes laid over
// it) with the event's delta applied (temp: keys never stored), the event
// appended, last_update_time = the event's; then HSETs each app:/user: key
// of the delta into its hash with orjson.dumps, and SETs the blob.
// Upstream pipelines these without a transaction and has no stale check
// (last writer wins); Statehouse WATCHes the session and its tiers and
// sends them in one MULTI, so an agent's append that lands in between is
// never overwritten: the write starts again on what the agent wrote.
import { sessionAlreadyExists, sessionNotFound } from '../../../session-service/errors';
import { KEY_PREFIX_APP, KEY_PREFIX_TEMP, KEY_PREFIX_USER, mergeState } from '../../../session-service/scope';
import type { SessionRef } from '../../../session-service/store';
import type { Event, JsonValue, StateRecord } from '../../../session-service/types';
import type { FamilyWrites } from '../family';
import { eventToPython } from '../python/event-json';
import type { Redis } from './client';
import { communityKeys } from './community-layout';
import { MirrorBehind } from './mirror';
import { pythonFloatText } from './python-writes';
import type { RedisWriteContext } from './writes';

type Multi = ReturnType<Redis['multi']>;
type Blob = Record<string, unknown>;

/** orjson.dumps of one event of `Session.model_dump()`: compact, UTF-8 as is, its timestamp a float. */
export function communityEventText(item: unknown): string {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return JSON.stringify(item);
  const fields = Object.entries(item as Record<string, unknown>).map(
    ([key, value]) =>
      `${JSON.stringify(key)}:${key === 'timestamp' && typeof value === 'number' ? pythonFloatText(value) : JSON.stringify(value)}`,
  );
  return `{${fields.join(',')}}`;
}

/** The blob as orjson.dumps(Session.model_dump()) spells it, its fields in the order they came. */
export function communityBlobText(blob: Blob): string {
  const fields = Object.entries(blob).map(([key, value]) => {
    if (key === 'events' && Array.isArray(value)) return `"events":[${value.map(communityEventText).join(',')}]`;
    if (key === 'last_update_time' && typeof value === 'number') return `"last_update_time":${pythonFloatText(value)}`;
    return `${JSON.stringify(key)}:${JSON.stringify(value)}`;
  });
  return `{${fields.join(',')}}`;
}

function parseTier(hash: Record<string, string>): StateRecord {
  const out: StateRecord = {};
  for (const [field, value] of Object.entries(hash)) {
    try {
      Object.defineProperty(out, field, { value: JSON.parse(value) as JsonValue, enumerable: true, writable: true, configurable: true });
    } catch {
      // A field the agent's own get_session could not read either; the blob keeps its copy.
    }
  }
  return out;
}

const withoutTemp = (state: StateRecord): StateRecord =>
  Object.fromEntries(Object.entries(state).filter(([key]) => !key.startsWith(KEY_PREFIX_TEMP)));

export function communityWrites(context: RedisWriteContext<typeof communityKeys>): FamilyWrites {
  const { client, ttlSeconds, refresh } = context;
  const keys = communityKeys;
  const setBlob = (multi: Multi, key: string, blob: Blob) => {
    // SET ... EX expire, as upstream, when the operator said what expire is; else the key keeps the TTL it has.
    if (ttlSeconds) multi.set(key, communityBlobText(blob), 'EX', ttlSeconds);
    else multi.set(key, communityBlobText(blob), 'KEEPTTL');
  };
  const exec = async (multi: Multi) => {
    if ((await multi.exec()) === null) throw new MirrorBehind();
  };
  /** WATCH the blob and the tiers, read them: what get_session would have given the runner. */
  const load = async (ref: SessionRef) => {
    const key = keys.session(ref.sessionId);
    const appKey = keys.appState(ref.appName);
    const userKey = keys.userState(ref.appName, ref.userId);
    await client.watch(key, appKey, userKey);
    const raw = await client.get(key);
    if (raw === null) {
      await client.unwatch();
      throw sessionNotFound(ref.sessionId);
    }
    const blob = JSON.parse(raw) as Blob;
    const app = parseTier(await client.hgetall(appKey));
    const user = parseTier(await client.hgetall(userKey));
    return { key, blob, app, user };
  };

  return {
    lockedRows: () => ['session'],
    async append(q, write) {
      const { ref, event } = write;
      const { key, blob, app, user } = await load(ref);
      const loaded = { ...((blob.state ?? {}) as StateRecord), ...mergeState(app, user, {}) };
      const state = withoutTemp({ ...loaded, ...event.actions.stateDelta });
      const events = [...((blob.events as unknown[] | undefined) ?? []), eventToPython(event)];
      const multi = client.multi();
      if (ttlSeconds) multi.expire(keys.userSessions(ref.appName, ref.userId), ttlSeconds);
      for (const [name, value] of Object.entries(event.actions.stateDelta)) {
        if (name.startsWith(KEY_PREFIX_APP))
          multi.hset(keys.appState(ref.appName), name.slice(KEY_PREFIX_APP.length), JSON.stringify(value));
        if (name.startsWith(KEY_PREFIX_USER))
          multi.hset(keys.userState(ref.appName, ref.userId), name.slice(KEY_PREFIX_USER.length), JSON.stringify(value));
      }
      setBlob(multi, key, { ...blob, state, events, last_update_time: event.timestamp });
      await exec(multi);
      await refresh(q, ref);
    },
    // The hash field an append's app:/user: key sets (a removed key: HDEL). Every session's read lays the hash over its blob.
    async editTier(q, write) {
      const before = write.scope === 'app' ? write.app : write.user;
      const key = write.scope === 'app' ? keys.appState(write.appName) : keys.userState(write.appName, write.userId ?? '');
      const multi = client.multi();
      for (const [name, value] of Object.entries(write.next))
        if (JSON.stringify(before[name]) !== JSON.stringify(value)) multi.hset(key, name, JSON.stringify(value));
      const removed = Object.keys(before).filter((name) => !Object.hasOwn(write.next, name));
      if (removed.length > 0) multi.hdel(key, ...removed);
      await exec(multi);
      await refresh(q);
    },
    // create_session: SADD the id to the user's set and SET the blob, Session(state=state) as given (no hash is written).
    async createSession(q, write) {
      const { ref, delta, now } = write;
      const key = keys.session(ref.sessionId);
      if ((await client.exists(key)) > 0) throw sessionAlreadyExists(ref.sessionId);
      const setKey = keys.userSessions(ref.appName, ref.userId);
      const multi = client.multi();
      multi.sadd(setKey, ref.sessionId);
      if (ttlSeconds) multi.expire(setKey, ttlSeconds);
      const blob: Blob = {
        id: ref.sessionId,
        app_name: ref.appName,
        user_id: ref.userId,
        state: mergeState(delta.app, delta.user, delta.session),
        events: [],
        last_update_time: now,
      };
      if (ttlSeconds) multi.set(key, communityBlobText(blob), 'EX', ttlSeconds);
      else multi.set(key, communityBlobText(blob));
      await exec(multi);
      await refresh(q, ref);
    },
    // A fork's or an import's event, added to the blob's list; the state create_session stored stays.
    async insertEvent(q, ref, event: Event) {
      const { key, blob } = await load(ref);
      const multi = client.multi();
      setBlob(multi, key, { ...blob, events: [...((blob.events as unknown[] | undefined) ?? []), eventToPython(event)] });
      await exec(multi);
      await refresh(q, ref);
    },
  };
}

/** delete_session: SREM from the user's set and DEL the blob. */
export async function communityDelete(client: Redis, ref: SessionRef): Promise<void> {
  await client
    .multi()
    .srem(communityKeys.userSessions(ref.appName, ref.userId), ref.sessionId)
    .del(communityKeys.session(ref.sessionId))
    .exec();
}
