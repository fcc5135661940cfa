// adk-python RedisSessionService's writes (redis_session_service.py at
// google/adk-python@20c6c9e7), command for command: append_event's WATCH /
// HGETALL / revision check / MULTI (HSET of the session's four fields, the
// tiers' HSETs, EXPIREs when a TTL is set) / EXEC, create_session's HSETs and
// SADDs, delete_session's DEL and SREM. Each ends by reading what it wrote
// back into the mirror, in the same write.
import { sessionAlreadyExists, sessionNotFound } from '../../../session-service/errors';
import type { SessionRef } from '../../../session-service/store';
import type { Event, JsonValue, StateRecord } from '../../../session-service/types';
import { KEY_PREFIX_APP, KEY_PREFIX_TEMP, KEY_PREFIX_USER } from '../../../session-service/scope';
import type { AgentQuery } from '../agent-db';
import type { FamilyWrites } from '../family';
import { eventToPython, pythonEventWritten } from '../python/event-json';
import type { SpelledJson } from '../../../session-service/json-spelling';
import { splitSpellings, type ValueSpellings } from '../../../session-service/value-spelling';
import { tierWritten } from '../base/state-spelling';
import { pythonJsonDumps } from '../python/json-dumps';
import type { Redis } from './client';
import { MirrorBehind } from './mirror';
import type { PythonKeys } from './python-layout';
import type { RedisWriteContext } from './writes';

/** Python's str(float): a whole number keeps `.0`; an exponent has a sign and two digits at least. */
export function pythonFloatText(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return `${value}.0`;
  return String(value).replace(/e([+-])(\d)$/, 'e$10$2');
}

/** int(decoded.get("revision", "0") or 0), and 0 for what int() refuses, as _load_session and append_event read it. */
export function pythonRevision(text: string | null | undefined): number {
  if (!text || !/^\s*[-+]?\d+\s*$/.test(text)) return 0;
  return Number.parseInt(text, 10);
}

/** json.dumps of the stored list with one more item, the items before it as they are stored (json.dumps of json.loads is the same text). */
function appendToList(stored: string, item: string): string {
  const list = JSON.parse(stored) as unknown[];
  if (list.length === 0) return `[${item}]`;
  return `${stored.trimEnd().slice(0, -1)}, ${item}]`;
}

/** `event.model_dump(mode="json", exclude_none=True)`, as json.dumps spells it inside the events list. */
const eventDump = (event: Event, deltaSpellings?: ValueSpellings) =>
  pythonJsonDumps(eventToPython(event), pythonEventWritten(deltaSpellings));

/** Each value as json.dumps spells it; `written`: the tier's texts (WriteContext.written). */
const dumpEach = (tier: StateRecord, written: SpelledJson | undefined): Record<string, string> => {
  const texts = written?.kind === 'object' ? written.entries : undefined;
  return Object.fromEntries(Object.entries(tier).map(([key, value]) => [key, pythonJsonDumps(value, texts?.get(key))]));
};

const nonEmpty = (record: StateRecord) => Object.keys(record).length > 0;

/** _serialize_session_state: the session tier alone. */
function sessionOnly(state: Record<string, JsonValue>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(state)) {
    if (key.startsWith(KEY_PREFIX_APP) || key.startsWith(KEY_PREFIX_USER) || key.startsWith(KEY_PREFIX_TEMP)) continue;
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

async function mirroredRevision(q: AgentQuery, ref: SessionRef): Promise<string | null> {
  const rows = await q.all('SELECT revision FROM sessions WHERE app_name = ? AND user_id = ? AND id = ?', [
    ref.appName,
    ref.userId,
    ref.sessionId,
  ]);
  const value = rows[0]?.revision;
  return typeof value === 'string' ? value : null;
}

/**
 * WATCH the session, read it, and check its revision against the copy the
 * console loaded (the mirror): the stale check append_event makes with
 * `_storage_update_marker`. A moved revision starts the write again on a
 * fresh mirror, where the base's own stale check then sees it.
 */
async function watched(client: Redis, q: AgentQuery, key: string, ref: SessionRef): Promise<Record<string, string>> {
  await client.watch(key);
  const hash = await client.hgetall(key);
  if (Object.keys(hash).length === 0) {
    await client.unwatch();
    throw sessionNotFound(ref.sessionId);
  }
  const loaded = await mirroredRevision(q, ref);
  if (loaded !== null && pythonRevision(loaded) !== pythonRevision(hash.revision)) {
    await client.unwatch();
    throw new MirrorBehind();
  }
  return hash;
}

export function pythonWrites(context: RedisWriteContext<PythonKeys>): FamilyWrites {
  const { client, keys, ttlSeconds, refresh } = context;
  const expire = (multi: ReturnType<Redis['multi']>, ref: SessionRef) => {
    if (!ttlSeconds) return;
    multi.expire(keys.session(ref), ttlSeconds);
    multi.expire(keys.sessionsIndex(ref.appName, ref.userId), ttlSeconds);
  };
  const exec = async (multi: ReturnType<Redis['multi']>) => {
    // null: a watched key changed between the read and EXEC (redis-py's WatchError), so nothing was written.
    if ((await multi.exec()) === null) throw new MirrorBehind();
  };

  return {
    lockedRows: () => ['session'],
    async append(q, write) {
      const { ref, event, delta } = write;
      const key = keys.session(ref);
      const hash = await watched(client, q, key, ref);
      const state = sessionOnly({ ...(JSON.parse(hash.state ?? '{}') as Record<string, JsonValue>), ...delta.session });
      const written = tierWritten(hash.state, splitSpellings(write.deltaSpellings).session, Object.keys(delta.session));
      const multi = client.multi();
      multi.hset(key, {
        state: pythonJsonDumps(state, written),
        events: appendToList(hash.events ?? '[]', eventDump(event, write.deltaSpellings)),
        last_update_time: pythonFloatText(event.timestamp),
        revision: String(pythonRevision(hash.revision) + 1),
      });
      if (nonEmpty(delta.app)) multi.hset(keys.appState(ref.appName), dumpEach(delta.app, write.written?.app));
      if (nonEmpty(delta.user)) multi.hset(keys.userState(ref.appName, ref.userId), dumpEach(delta.user, write.written?.user));
      expire(multi, ref);
      await exec(multi);
      await refresh(q, ref);
    },
    // The tier's HSET an append makes for these keys (a removed key: HDEL; no ADK removes one, and Redis has no other way).
    async editTier(q, write) {
      const before = write.scope === 'app' ? write.app : write.user;
      const key = write.scope === 'app' ? keys.appState(write.appName) : keys.userState(write.appName, write.userId ?? '');
      const changed: StateRecord = {};
      const edited = new Set(write.edited);
      for (const [name, value] of Object.entries(write.next)) {
        if (edited.has(name) || JSON.stringify(before[name]) !== JSON.stringify(value)) changed[name] = value;
      }
      const removed = Object.keys(before).filter((name) => !Object.hasOwn(write.next, name));
      const multi = client.multi();
      if (nonEmpty(changed)) multi.hset(key, dumpEach(changed, write.written?.[write.scope]));
      if (removed.length > 0) multi.hdel(key, ...removed);
      await exec(multi);
      await refresh(q, undefined, write.appName, write.userId);
    },
    // create_session: the shared deltas' HSETs, the session hash (revision 1, no events, last_update_time now), both SADDs, the TTL.
    async createSession(q, write) {
      const { ref, delta, now, written } = write;
      const key = keys.session(ref);
      if ((await client.exists(key)) > 0) throw sessionAlreadyExists(ref.sessionId);
      const multi = client.multi();
      if (nonEmpty(delta.app)) multi.hset(keys.appState(ref.appName), dumpEach(delta.app, written?.app));
      if (nonEmpty(delta.user)) multi.hset(keys.userState(ref.appName, ref.userId), dumpEach(delta.user, written?.user));
      multi.hset(key, {
        state: pythonJsonDumps(delta.session, written?.session),
        events: '[]',
        last_update_time: pythonFloatText(now),
        revision: '1',
      });
      multi.sadd(keys.sessionsIndex(ref.appName, ref.userId), ref.sessionId);
      multi.sadd(keys.usersIndex(ref.appName), ref.userId);
      expire(multi, ref);
      await exec(multi);
      await refresh(q, ref);
    },
    // A fork's or an import's event: added to the list as append_event adds it (revision + 1), no tier and no state touched.
    async insertEvent(q, ref: SessionRef, event: Event, deltaSpellings?: ValueSpellings) {
      const key = keys.session(ref);
      const hash = await watched(client, q, key, ref);
      const multi = client.multi();
      multi.hset(key, {
        events: appendToList(hash.events ?? '[]', eventDump(event, deltaSpellings)),
        revision: String(pythonRevision(hash.revision) + 1),
      });
      expire(multi, ref);
      await exec(multi);
      await refresh(q, ref);
    },
  };
}

/** delete_session: DEL the hash and SREM it from the user's index, in one MULTI (redis-py's pipeline() is transactional). */
export async function pythonDelete(client: Redis, keys: PythonKeys, ref: SessionRef): Promise<void> {
  await client.multi().del(keys.session(ref)).srem(keys.sessionsIndex(ref.appName, ref.userId), ref.sessionId).exec();
}
