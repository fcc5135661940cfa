// adk-python-community's RedisSessionService (src/google/adk_community/
// sessions/redis_session_service.py at google/adk-python-community@06cc0577):
// `session:{id}` a STRING holding orjson.dumps(Session.model_dump()), the
// whole session (state as the runner's copy held it, app:/user: copies
// included; events inline), set with `EX expire`; `app::{app}:{user}` (sic:
// f"{State.APP_PREFIX}:{app}:{user}") a SET of the user's session ids;
// `app:{app}` and `user:{app}:{user}` HASHes of orjson.dumps values. No
// index of apps or users: SCAN finds them. get_session returns the blob's
// state with the app and user hashes laid over it (_merge_state), so a key
// such as `app:x` that create_session stored only in the blob is still read.
import type { SessionRef } from '../../../session-service/store';
import { KEY_PREFIX_APP, KEY_PREFIX_TEMP, KEY_PREFIX_USER } from '../../../session-service/scope';
import { pipelined, scanKeys, type Redis } from './client';
import { answeredTierText, brokenText, RecordMemo, rereadTierText } from './snapshot';
import type { RedisSnapshot, SessionRecord, TierRecord } from './snapshot';

export const communityKeys = {
  session: (sessionId: string) => `session:${sessionId}`,
  userSessions: (appName: string, userId: string) => `${KEY_PREFIX_APP}:${appName}:${userId}`,
  appState: (appName: string) => `${KEY_PREFIX_APP}${appName}`,
  userState: (appName: string, userId: string) => `${KEY_PREFIX_USER}${appName}:${userId}`,
};

function splitApp(rest: string): [string, string] | null {
  const colon = rest.indexOf(':');
  return colon <= 0 ? null : [rest.slice(0, colon), rest.slice(colon + 1)];
}

function parsedTier(hash: Record<string, string> | Error | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!hash || hash instanceof Error) return out;
  for (const [field, value] of Object.entries(hash)) {
    try {
      out[field] = JSON.parse(value);
    } catch {
      // The tier itself is reported unreadable (tierText); the session still reads.
    }
  }
  return out;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The blob as the mirror keeps it. The session tier is what the blob's state
 * adds to the hashes: its keys, less temp: keys and the app:/user: copies
 * the hashes override on every read.
 */
export function communitySessionRecord(
  ref: SessionRef,
  key: string,
  raw: string | Error,
  app: Record<string, unknown>,
  user: Record<string, unknown>,
): SessionRecord {
  const base = { ref, key, create: null, update: null, revision: null, events: [] as string[] };
  const broken = (field: string, text: string, reason: string): SessionRecord => {
    const note = { field, raw: text, reason };
    return { ...base, state: brokenText(note), broken: note };
  };
  if (raw instanceof Error) return broken('type', key, raw.message);
  let blob: unknown;
  try {
    blob = JSON.parse(raw);
  } catch (error) {
    return broken('session', raw, error instanceof Error ? error.message : 'not JSON');
  }
  if (!isObject(blob)) return broken('session', raw, 'not a JSON object');
  // Session.model_validate's defaults: no events [], no state {}, no last_update_time 0.0.
  if (!('events' in blob)) blob.events = [];
  if (!('state' in blob)) blob.state = {};
  if (!('last_update_time' in blob)) blob.last_update_time = 0;
  if (!Array.isArray(blob.events)) return broken('events', JSON.stringify(blob.events), 'not a JSON list');
  const update = typeof blob.last_update_time === 'number' ? blob.last_update_time : JSON.stringify(blob.last_update_time);
  let state: string;
  if (isObject(blob.state)) {
    const own: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(blob.state)) {
      if (name.startsWith(KEY_PREFIX_TEMP)) continue;
      if (name.startsWith(KEY_PREFIX_APP) && Object.hasOwn(app, name.slice(KEY_PREFIX_APP.length))) continue;
      if (name.startsWith(KEY_PREFIX_USER) && Object.hasOwn(user, name.slice(KEY_PREFIX_USER.length))) continue;
      Object.defineProperty(own, name, { value, enumerable: true, writable: true, configurable: true });
    }
    state = JSON.stringify(own);
  } else state = JSON.stringify(blob.state);
  const first = blob.events[0] as unknown;
  const firstTime = isObject(first) ? first.timestamp : undefined;
  return {
    ...base,
    state,
    update,
    create: typeof firstTime === 'number' ? firstTime : update,
    events: blob.events.map((item) => JSON.stringify(item)),
  };
}

export async function readCommunitySnapshot(client: Redis, memo: RecordMemo = new RecordMemo()): Promise<RedisSnapshot> {
  const found = await scanKeys(client, '*');
  const sets: Array<{ app: string; user: string; key: string }> = [];
  const appTiers: Array<{ app: string; key: string }> = [];
  const userTiers: Array<{ app: string; user: string; key: string }> = [];
  const blobs: string[] = [];
  for (const key of found) {
    if (key.startsWith('app::')) {
      const tail = splitApp(key.slice('app::'.length));
      if (tail) sets.push({ app: tail[0], user: tail[1], key });
    } else if (key.startsWith(KEY_PREFIX_APP)) appTiers.push({ app: key.slice(KEY_PREFIX_APP.length), key });
    else if (key.startsWith(KEY_PREFIX_USER)) {
      const tail = splitApp(key.slice(KEY_PREFIX_USER.length));
      if (tail) userTiers.push({ app: tail[0], user: tail[1], key });
    } else if (key.startsWith('session:')) blobs.push(key);
  }
  const answers = await pipelined<unknown>(client, (pipe) => {
    for (const set of sets) pipe.smembers(set.key);
    for (const tier of appTiers) pipe.hgetall(tier.key);
    for (const tier of userTiers) pipe.hgetall(tier.key);
    for (const key of blobs) pipe.get(key);
  });
  const appHash = new Map<string, Record<string, string> | Error>();
  const userHash = new Map<string, Record<string, string> | Error>();
  appTiers.forEach((tier, i) => appHash.set(tier.app, answers[sets.length + i] as Record<string, string> | Error));
  userTiers.forEach((tier, i) =>
    userHash.set(`${tier.app}\u0000${tier.user}`, answers[sets.length + appTiers.length + i] as Record<string, string> | Error),
  );
  const blobOf = new Map<string, string | Error>();
  blobs.forEach((key, i) => {
    const value = answers[sets.length + appTiers.length + userTiers.length + i];
    if (value !== null && value !== undefined) blobOf.set(key, value as string | Error);
  });
  const sessions: SessionRecord[] = [];
  const placed = new Set<string>();
  const add = (ref: SessionRef, key: string) => {
    const raw = blobOf.get(key);
    if (raw === undefined) return; // an id whose blob expired: list_sessions skips it
    const appRaw = appHash.get(ref.appName);
    const userRaw = userHash.get(`${ref.appName}\u0000${ref.userId}`);
    const build = () => communitySessionRecord(ref, key, raw, parsedTier(appRaw), parsedTier(userRaw));
    // The session tier depends on the hashes too (the keys they override).
    const fingerprint = raw instanceof Error ? null : JSON.stringify([ref, raw, appRaw, userRaw]);
    sessions.push(fingerprint === null ? build() : memo.record(`${key}\u0000${ref.appName}\u0000${ref.userId}`, fingerprint, build));
    placed.add(key);
  };
  sets.forEach((set, i) => {
    const ids = answers[i];
    if (!Array.isArray(ids)) return;
    for (const sessionId of ids as string[]) add({ appName: set.app, userId: set.user, sessionId }, communityKeys.session(sessionId));
  });
  // A blob whose user's set expired first (the set's TTL is refreshed only by appends) is placed by its own app_name and user_id.
  for (const [key, raw] of blobOf) {
    if (placed.has(key) || raw instanceof Error) continue;
    try {
      const blob = JSON.parse(raw) as unknown;
      if (isObject(blob) && typeof blob.app_name === 'string' && typeof blob.user_id === 'string')
        add({ appName: blob.app_name, userId: blob.user_id, sessionId: key.slice('session:'.length) }, key);
    } catch {
      // Not placeable: no app or user to list it under.
    }
  }
  memo.done();
  const apps: TierRecord[] = appTiers.map((t) => ({ appName: t.app, state: answeredTierText(appHash.get(t.app), t.key) }));
  const users: TierRecord[] = userTiers.map((t) => ({
    appName: t.app,
    userId: t.user,
    state: answeredTierText(userHash.get(`${t.app}\u0000${t.user}`), t.key),
  }));
  return { sessions, apps, users };
}

/** One session and its tiers read again (after a write): null for a session whose blob is gone. */
export async function readCommunityParts(client: Redis, ref: SessionRef | undefined, appName: string, userId: string | undefined) {
  const [app, user, blob] = await pipelined<unknown>(client, (pipe) => {
    pipe.hgetall(communityKeys.appState(appName));
    pipe.hgetall(communityKeys.userState(appName, userId ?? ''));
    pipe.get(ref ? communityKeys.session(ref.sessionId) : communityKeys.appState(appName));
  });
  const asHash = (value: unknown) => value as Record<string, string> | Error | undefined;
  const session =
    ref && typeof blob === 'string'
      ? communitySessionRecord(ref, communityKeys.session(ref.sessionId), blob, parsedTier(asHash(app)), parsedTier(asHash(user)))
      : null;
  return {
    sessions: ref ? ([[ref, session]] as Array<[SessionRef, SessionRecord | null]>) : [],
    apps: [{ appName, state: rereadTierText(asHash(app), communityKeys.appState(appName)) }],
    users: userId === undefined ? [] : [{ appName, userId, state: rereadTierText(asHash(user), communityKeys.userState(appName, userId)) }],
  };
}
