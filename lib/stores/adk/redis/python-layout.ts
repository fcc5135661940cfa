// adk-python's RedisSessionService (src/google/adk/integrations/redis/
// redis_session_service.py at google/adk-python@20c6c9e7): every key under
// key_prefix (default `adk:session`). `{p}:session:{app}:{user}:{id}` is a
// HASH of `state` (json.dumps of the session tier), `events` (json.dumps of
// the list of `model_dump(mode="json", exclude_none=True)`),
// `last_update_time` (str(float)) and `revision` (str(int)); the SETs
// `{p}:sessions_index:{app}:{user}` and `{p}:users_index:{app}` list them;
// `{p}:app_state:{app}` and `{p}:user_state:{app}:{user}` are HASHes of
// json.dumps values. There is no index of apps: SCAN finds them.
import type { SessionRef } from '../../../session-service/store';
import { pipelined, scanKeys, type Redis } from './client';
import { answeredTierText, brokenText, globEscape, pythonFloat, RecordMemo, rereadTierText } from './snapshot';
import type { RedisSnapshot, SessionRecord, TierRecord } from './snapshot';

export const PYTHON_DEFAULT_PREFIX = 'adk:session';

export interface PythonKeys {
  session(ref: SessionRef): string;
  sessionsIndex(appName: string, userId: string): string;
  usersIndex(appName: string): string;
  appState(appName: string): string;
  userState(appName: string, userId: string): string;
}

export function pythonKeys(prefix: string): PythonKeys {
  return {
    session: (ref) => `${prefix}:session:${ref.appName}:${ref.userId}:${ref.sessionId}`,
    sessionsIndex: (app, user) => `${prefix}:sessions_index:${app}:${user}`,
    usersIndex: (app) => `${prefix}:users_index:${app}`,
    appState: (app) => `${prefix}:app_state:${app}`,
    userState: (app, user) => `${prefix}:user_state:${app}:${user}`,
  };
}

/** The key kinds under the prefix this layout writes, for detection. */
export const PYTHON_KINDS = ['session', 'sessions_index', 'users_index', 'app_state', 'user_state'] as const;

/** `{app}:{rest}`: app names have no colon (adk-python's app names are `^[a-zA-Z0-9_]+$`); the rest may. */
function splitApp(rest: string): [string, string] | null {
  const colon = rest.indexOf(':');
  return colon <= 0 ? null : [rest.slice(0, colon), rest.slice(colon + 1)];
}

/** The session hash as the mirror keeps it: the fields as stored; a missing or non-JSON events list breaks the session. */
export function pythonSessionRecord(ref: SessionRef, key: string, hash: Record<string, string> | Error): SessionRecord {
  const base = { ref, key, create: null, revision: null, events: [] as string[] };
  if (hash instanceof Error) {
    const broken = { field: 'type', raw: key, reason: hash.message };
    return { ...base, state: brokenText(broken), update: null, broken };
  }
  const updateText = hash.last_update_time ?? null;
  const update = pythonFloat(updateText) ?? updateText;
  // _load_session's defaults: a missing state reads {}, missing events [].
  const record: SessionRecord = { ...base, state: hash.state ?? '{}', update, revision: hash.revision ?? null };
  let events: unknown;
  try {
    events = JSON.parse(hash.events ?? '[]');
  } catch (error) {
    record.broken = { field: 'events', raw: hash.events ?? '(missing)', reason: error instanceof Error ? error.message : 'not JSON' };
  }
  if (!record.broken && !Array.isArray(events)) record.broken = { field: 'events', raw: hash.events ?? '', reason: 'not a JSON list' };
  if (record.broken) return { ...record, state: brokenText(record.broken) };
  record.events = (events as unknown[]).map((item) => JSON.stringify(item));
  const first = (events as unknown[])[0];
  const firstTime = first && typeof first === 'object' ? (first as { timestamp?: unknown }).timestamp : undefined;
  // Redis keeps no create time: the first event's, else the last update's (create_session's own time while no event came).
  record.create = typeof firstTime === 'number' ? firstTime : update;
  return record;
}

export async function readPythonSnapshot(client: Redis, prefix: string, memo: RecordMemo = new RecordMemo()): Promise<RedisSnapshot> {
  const keys = pythonKeys(prefix);
  const head = `${prefix}:`;
  const found = await scanKeys(client, `${globEscape(prefix)}:*`);
  const sessionKeys = new Set<string>();
  const indexes: Array<{ app: string; user: string; key: string }> = [];
  const appTiers: Array<{ app: string; key: string }> = [];
  const userTiers: Array<{ app: string; user: string; key: string }> = [];
  for (const key of found) {
    const rest = key.slice(head.length);
    const kind = rest.slice(0, rest.indexOf(':'));
    const tail = splitApp(rest.slice(kind.length + 1));
    if (kind === 'session') sessionKeys.add(key);
    else if (kind === 'app_state') appTiers.push({ app: rest.slice(kind.length + 1), key });
    else if (kind === 'sessions_index' && tail) indexes.push({ app: tail[0], user: tail[1], key });
    else if (kind === 'user_state' && tail) userTiers.push({ app: tail[0], user: tail[1], key });
  }
  // The indexes say where a session key's user ends and its id begins (either may hold a colon).
  const members = await pipelined<string[]>(client, (pipe) => indexes.forEach((index) => pipe.smembers(index.key)));
  const refs = new Map<string, SessionRef>();
  indexes.forEach((index, i) => {
    const ids = members[i];
    if (ids instanceof Error || ids === undefined) return;
    for (const sessionId of ids) {
      const ref = { appName: index.app, userId: index.user, sessionId };
      const key = keys.session(ref);
      if (sessionKeys.has(key)) refs.set(key, ref);
    }
  });
  for (const key of sessionKeys) {
    if (refs.has(key)) continue;
    const tail = splitApp(key.slice(`${head}session:`.length));
    const last = tail ? tail[1].lastIndexOf(':') : -1;
    if (!tail || last <= 0) continue;
    refs.set(key, { appName: tail[0], userId: tail[1].slice(0, last), sessionId: tail[1].slice(last + 1) });
  }
  const sessionList = [...refs];
  const hashes = await pipelined<Record<string, string>>(client, (pipe) => {
    for (const [key] of sessionList) pipe.hgetall(key);
    for (const tier of appTiers) pipe.hgetall(tier.key);
    for (const tier of userTiers) pipe.hgetall(tier.key);
  });
  const sessions = sessionList.flatMap(([key, ref], i) => {
    const hash = hashes[i] ?? {};
    // An index entry whose hash expired reads as an empty hash: adk-python's list_sessions skips it too.
    if (!(hash instanceof Error) && Object.keys(hash).length === 0) return [];
    if (hash instanceof Error) return [pythonSessionRecord(ref, key, hash)];
    const raw = JSON.stringify([ref, hash.state, hash.events, hash.last_update_time, hash.revision]);
    return [memo.record(key, raw, () => pythonSessionRecord(ref, key, hash))];
  });
  memo.done();
  const tier = (offset: number, key: string): string => {
    const hash = hashes[offset];
    return answeredTierText(hash, key);
  };
  const apps: TierRecord[] = appTiers.map((t, i) => ({ appName: t.app, state: tier(sessionList.length + i, t.key) }));
  const users: TierRecord[] = userTiers.map((t, i) => ({
    appName: t.app,
    userId: t.user,
    state: tier(sessionList.length + appTiers.length + i, t.key),
  }));
  return { sessions, apps, users };
}

/** One session and its tiers read again (after a write): null for a session whose hash is gone. */
export async function readPythonParts(
  client: Redis,
  keys: PythonKeys,
  ref: SessionRef | undefined,
  appName: string,
  userId: string | undefined,
) {
  const [hash, app, user] = await pipelined<Record<string, string>>(client, (pipe) => {
    pipe.hgetall(ref ? keys.session(ref) : keys.appState(appName));
    pipe.hgetall(keys.appState(appName));
    pipe.hgetall(keys.userState(appName, userId ?? ''));
  });
  const session: SessionRecord | null =
    ref && hash !== undefined && (hash instanceof Error || Object.keys(hash).length > 0)
      ? pythonSessionRecord(ref, keys.session(ref), hash)
      : null;
  const appState = rereadTierText(app, keys.appState(appName));
  const userState = userId === undefined ? null : rereadTierText(user, keys.userState(appName, userId));
  return {
    sessions: ref ? ([[ref, session]] as Array<[SessionRef, SessionRecord | null]>) : [],
    apps: [{ appName, state: appState }],
    users: userId === undefined ? [] : [{ appName, userId, state: userState }],
  };
}
