// An ADK store's reads of one session and of the shared tiers, from its replayed timeline.
import { eventSearchText, eventToolNames } from '../../../session-service/search';
import { invalidInput, sessionNotFound } from '../../../session-service/errors';
import { hasOwn } from '../../../session-service/json';
import { pageBounds } from '../../../session-service/paging';
import { mergeState, prefixedKey } from '../../../session-service/scope';
import type { EventQuery, SessionRef } from '../../../session-service/store';
import type {
  ChangeSource,
  Event,
  GetSessionConfig,
  Page,
  Session,
  SessionSummary,
  SessionTiers,
  StateChange,
  StateRecord,
  StoredEvent,
} from '../../../session-service/types';
import type { AdkStoreContext } from './context';
import { RowDecoder } from './row-decoder';
import { appRow, changeSource, eventCount, readableTier, sessionRow, sessionWithTiers, sortedEntries, userRow } from './rows';
import { edits } from './history';
import { blobSpellings } from './state-spelling';
import { timelinesOf } from './timeline';
import { eventsMentioning } from './mentions';

export async function getSession(ctx: AdkStoreContext, ref: SessionRef, config: GetSessionConfig = {}): Promise<Session | null> {
  if (config.numRecentEvents !== undefined && config.numRecentEvents < 0) throw invalidInput('numRecentEvents must not be negative.');
  if (config.numRecentEvents !== undefined && !config.afterTimestamp) return recentOnly(ctx, ref, config.numRecentEvents);
  const rows = await sessionWithTiers(ctx, ref);
  if (!rows) return null;
  const { row, app, user } = rows;
  // The whole session by contract, read in the timeline's pages: its events are held once, as they are returned.
  const total = (await timelinesOf(ctx).head(ctx, ref)).seq;
  let events = (await timelinesOf(ctx).events(ctx, ref, 0, total)).map((item) => item.event);
  if (config.afterTimestamp) events = events.filter((event) => event.timestamp >= (config.afterTimestamp ?? 0));
  if (config.numRecentEvents !== undefined) events = config.numRecentEvents === 0 ? [] : events.slice(-config.numRecentEvents);
  return {
    id: ref.sessionId,
    appName: ref.appName,
    userId: ref.userId,
    state: mergeState(app?.state ?? {}, user?.state ?? {}, row.state),
    events,
    lastUpdateTime: row.update,
    revision: RowDecoder.revision(row.update),
  };
}

/** The session with only its last `count` events: those read by the timeline's keys, however long the session. */
async function recentOnly(ctx: AdkStoreContext, ref: SessionRef, count: number): Promise<Session | null> {
  const rows = await sessionWithTiers(ctx, ref);
  if (!rows) return null;
  const { row, app, user } = rows;
  const total = count === 0 ? 0 : (await timelinesOf(ctx).head(ctx, ref)).seq;
  const events = count === 0 ? [] : await timelinesOf(ctx).events(ctx, ref, Math.max(0, total - count), total);
  return {
    id: ref.sessionId,
    appName: ref.appName,
    userId: ref.userId,
    state: mergeState(app?.state ?? {}, user?.state ?? {}, row.state),
    events: events.map((item) => item.event),
    lastUpdateTime: row.update,
    revision: RowDecoder.revision(row.update),
  };
}

export async function getSessionSummary(ctx: AdkStoreContext, ref: SessionRef): Promise<SessionSummary | null> {
  return ctx.db.read(async (qx) => {
    const row = await sessionRow(ctx, qx, ref);
    if (!row) return null;
    return {
      id: ref.sessionId,
      appName: ref.appName,
      userId: ref.userId,
      createTime: row.create,
      lastUpdateTime: row.update,
      eventCount: await eventCount(ctx, qx, ref),
      revision: RowDecoder.revision(row.update),
    };
  });
}

export async function getSessionTiers(ctx: AdkStoreContext, ref: SessionRef): Promise<SessionTiers | null> {
  const rows = await sessionWithTiers(ctx, ref);
  if (!rows) return null;
  const { row, app, user } = rows;
  // A key's provenance is the last event of this session that set it, when that is still its value (the timeline's head knows both).
  const head = await timelinesOf(ctx).head(ctx, ref);
  const source = (scope: 'app' | 'user' | 'session', tier: StateRecord) => (key: string) => {
    const set = head.overlay[scope];
    const change = head.sources.get(prefixedKey(scope, key));
    if (!change || !hasOwn(set, key) || JSON.stringify(set[key]) !== JSON.stringify(tier[key])) return null;
    return change;
  };
  const appState = app?.state ?? {};
  const userState = user?.state ?? {};
  return {
    app: sortedEntries(
      appState,
      app ? ctx.seconds(app.updateRaw, 'tierUpdate') : 0,
      source('app', appState),
      blobSpellings(app?.stateRaw, appState),
    ),
    user: sortedEntries(
      userState,
      user ? ctx.seconds(user.updateRaw, 'tierUpdate') : 0,
      source('user', userState),
      blobSpellings(user?.stateRaw, userState),
    ),
    session: sortedEntries(row.state, row.update, source('session', row.state), blobSpellings(row.stateRaw, row.state)),
  };
}

export async function getAppState(ctx: AdkStoreContext, appName: string): Promise<SessionTiers['app']> {
  const row = readableTier(await ctx.db.read((qx) => appRow(ctx, qx, appName)), `App ${appName}'s state`);
  if (!row) return [];
  const sources = await editSources(ctx, appName, 'app', undefined, row.state);
  return sortedEntries(row.state, ctx.seconds(row.updateRaw, 'tierUpdate'), sources, blobSpellings(row.stateRaw, row.state));
}

export async function getUserState(ctx: AdkStoreContext, appName: string, userId: string): Promise<SessionTiers['user']> {
  const row = readableTier(await ctx.db.read((qx) => userRow(ctx, qx, appName, userId)), `User ${userId}'s state`);
  if (!row) return [];
  const sources = await editSources(ctx, appName, 'user', userId, row.state);
  return sortedEntries(row.state, ctx.seconds(row.updateRaw, 'tierUpdate'), sources, blobSpellings(row.stateRaw, row.state));
}

/** A key's provenance when Statehouse's latest edit of it set the value it still holds (events of the agent leave no such trace). */
async function editSources(
  ctx: AdkStoreContext,
  appName: string,
  scope: 'app' | 'user',
  userId: string | undefined,
  tier: StateRecord,
): Promise<(key: string) => ChangeSource | null> {
  const latest = new Map<string, StateChange>();
  for (const change of await edits(ctx, appName, [scope], userId)) {
    if (change.scope === scope && !latest.has(change.key)) latest.set(change.key, change);
  }
  return (key) => {
    const change = latest.get(key);
    return change && change.newValue !== undefined && JSON.stringify(change.newValue) === JSON.stringify(tier[key])
      ? changeSource(change)
      : null;
  };
}

export async function listEvents(ctx: AdkStoreContext, ref: SessionRef, query: EventQuery = {}): Promise<Page<StoredEvent>> {
  const { limit, offset } = pageBounds(query);
  const filtered = [query.author, query.invocationId, query.touchedKey, query.tool, query.from, query.to].some((f) => f !== undefined);
  if (!filtered && !query.text && !query.errors) {
    return eventPage(ctx, ref, query.afterSeq ?? 0, limit, offset, query.newestFirst === true);
  }
  if (!(await ctx.db.read((qx) => sessionRow(ctx, qx, ref)))) throw sessionNotFound(ref.sessionId);
  const needle = query.text?.toLowerCase();
  const keep = (event: Event) =>
    (query.author === undefined || event.author === query.author) &&
    (query.invocationId === undefined || event.invocationId === query.invocationId) &&
    (query.touchedKey === undefined || hasOwn(event.actions.stateDelta ?? {}, query.touchedKey)) &&
    (!needle || eventSearchText(event).toLowerCase().includes(needle)) &&
    (query.from === undefined || event.timestamp >= query.from) &&
    (query.to === undefined || event.timestamp <= query.to) &&
    (!query.errors || Boolean(event.errorCode || event.errorMessage)) &&
    (query.tool === undefined || eventToolNames(event).includes(query.tool));
  // Events that set the key are asked of the database first: only they are read.
  const mentions = query.touchedKey === undefined ? null : await eventsMentioning(ctx, ref, query.touchedKey);
  return timelinesOf(ctx).filtered(ctx, ref, keep, {
    after: Math.max(0, query.afterSeq ?? 0),
    ...(mentions ? { narrow: new Set(mentions.map((mention) => mention.id)) } : {}),
    offset,
    limit,
    newestFirst: query.newestFirst === true,
  });
}

/** A page of the session's events without filters: only that page is read, by the timeline's keys, however long the session. */
async function eventPage(
  ctx: AdkStoreContext,
  ref: SessionRef,
  afterSeq: number,
  limit: number,
  offset: number,
  newestFirst: boolean,
): Promise<Page<StoredEvent>> {
  // The session's own row first: absent is NOT_FOUND, unreadable is UNREADABLE, as a whole read answers.
  if (!(await ctx.db.read((qx) => sessionRow(ctx, qx, ref)))) throw sessionNotFound(ref.sessionId);
  const count = (await timelinesOf(ctx).head(ctx, ref)).seq;
  const from = Math.max(0, afterSeq);
  const total = Math.max(0, count - from);
  const take = Math.max(0, Math.min(limit, total - offset));
  if (take === 0) return { items: [], total };
  const start = newestFirst ? count - offset - take : from + offset;
  const items = await timelinesOf(ctx).events(ctx, ref, start, start + take);
  return { items: newestFirst ? items.reverse() : items, total };
}

/** The SessionStore reads of this file, for the facade (store.ts). */
export const sessionReads = { getSession, getSessionSummary, getSessionTiers, getAppState, getUserState, listEvents };
