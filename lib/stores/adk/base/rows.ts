// The rows an ADK store's operations start from: a session, its app and user
// tiers, its events, and its replayed timeline (cached while unchanged).
import type { SessionRef } from '../../../session-service/store';
import type { ChangeSource, Event, JsonValue, StateChange, StateEntry, StateRecord } from '../../../session-service/types';
import type { AgentQuery } from '../agent-db';
import { REPLAY_CACHE_SIZE, type AdkStoreContext } from './context';
import { replaySession, type Replay, type Tiers } from './replay';
import type { SessionRowView, TierRowView } from './row-decoder';
import { unreadableSession } from './unreadable';

/** A tier about to be written or shown on its own: UNREADABLE when its blob cannot be read, so nothing overwrites what is not understood. */
export function readableTier(tier: TierRowView | null, what: string): TierRowView | null {
  if (tier?.unreadable) throw unreadableSession(what, tier.unreadable);
  return tier;
}

export async function sessionRow(ctx: AdkStoreContext, qx: AgentQuery, ref: SessionRef, lock = false): Promise<SessionRowView | null> {
  const { t, app, user, id, state, create, updateRead } = ctx.s;
  const rows = await qx.all(
    `SELECT ${state} AS state, ${create} AS c, ${updateRead} AS u FROM ${t} WHERE ${app} = ? AND ${user} = ? AND ${id} = ?${ctx.forUpdate(lock)}`,
    [ref.appName, ref.userId, ref.sessionId],
  );
  const row = rows[0];
  return row ? ctx.rows.session(ref.sessionId, row) : null;
}

export async function appRow(ctx: AdkStoreContext, qx: AgentQuery, appName: string, lock = false): Promise<TierRowView | null> {
  const { t, app, state, update } = ctx.a;
  const row = (await qx.all(`SELECT ${state} AS state, ${update} AS u FROM ${t} WHERE ${app} = ?${ctx.forUpdate(lock)}`, [appName]))[0];
  return row ? ctx.rows.tier(row) : null;
}

export async function userRow(
  ctx: AdkStoreContext,
  qx: AgentQuery,
  appName: string,
  userId: string,
  lock = false,
): Promise<TierRowView | null> {
  const { t, app, user, state, update } = ctx.u;
  const row = (
    await qx.all(`SELECT ${state} AS state, ${update} AS u FROM ${t} WHERE ${app} = ? AND ${user} = ?${ctx.forUpdate(lock)}`, [
      appName,
      userId,
    ])
  )[0];
  return row ? ctx.rows.tier(row) : null;
}

async function sessionEvents(ctx: AdkStoreContext, qx: AgentQuery, ref: SessionRef): Promise<Event[]> {
  const { t, app, user, session, ts, id, cols } = ctx.e;
  const rows = await qx.all(`SELECT ${cols} FROM ${t} WHERE ${app} = ? AND ${user} = ? AND ${session} = ? ORDER BY ${ts}, ${id}`, [
    ref.appName,
    ref.userId,
    ref.sessionId,
  ]);
  return rows.map((row) => ctx.rows.event(row));
}

export async function eventCount(ctx: AdkStoreContext, qx: AgentQuery, ref: SessionRef): Promise<number> {
  const { t, app, user, session } = ctx.e;
  const row = (
    await qx.all(`SELECT count(*) AS n FROM ${t} WHERE ${app} = ? AND ${user} = ? AND ${session} = ?`, [
      ref.appName,
      ref.userId,
      ref.sessionId,
    ])
  )[0];
  return Number(row?.n ?? 0);
}

/** The app and user tier rows of a session, UNREADABLE when either blob cannot be read: a session's state is not shown without them. */
export function readableTiers(ref: SessionRef, app: TierRowView | null, user: TierRowView | null): void {
  readableTier(app, `App ${ref.appName}'s state`);
  readableTier(user, `User ${ref.userId}'s state`);
}

/** The session's own row and its app and user tier rows, in one read; null when there is no session, UNREADABLE when a row cannot be read. */
export async function sessionWithTiers(
  ctx: AdkStoreContext,
  ref: SessionRef,
): Promise<{ row: SessionRowView; app: TierRowView | null; user: TierRowView | null } | null> {
  const rows = await ctx.db.read(async (qx) => {
    const row = await sessionRow(ctx, qx, ref);
    return row ? { row, app: await appRow(ctx, qx, ref.appName), user: await userRow(ctx, qx, ref.appName, ref.userId) } : null;
  });
  if (rows) readableTiers(ref, rows.app, rows.user);
  return rows;
}

export interface LoadedReplay {
  replay: Replay;
  row: SessionRowView;
  /** The tiers now; an app or user tier whose blob cannot be read is empty here (see `shared`). */
  tiers: Tiers;
  shared: { app: TierRowView | null; user: TierRowView | null };
}

/**
 * The session's replayed timeline, reused while its update time and event
 * count stay the same. The replay's changes do not depend on the shared
 * tiers (only keys no event touches come from them), so a shared tier that
 * cannot be read leaves the events and their history readable; callers that
 * show the state check `shared` (readableTiers).
 */
export async function loadReplay(ctx: AdkStoreContext, ref: SessionRef): Promise<LoadedReplay | null> {
  return ctx.db.read(async (qx) => {
    const row = await sessionRow(ctx, qx, ref);
    if (!row) return null;
    const [app, user, count] = await Promise.all([
      appRow(ctx, qx, ref.appName),
      userRow(ctx, qx, ref.appName, ref.userId),
      eventCount(ctx, qx, ref),
    ]);
    const tiers: Tiers = { app: app?.state ?? {}, user: user?.state ?? {}, session: row.state };
    const key = JSON.stringify([ref.appName, ref.userId, ref.sessionId]);
    const marker = JSON.stringify([String(row.updateRaw), count, tiers]);
    const cached = ctx.replays.get(key);
    const shared = { app, user };
    if (cached && cached.marker === marker) return { replay: cached.replay, row, tiers, shared };
    const events = await sessionEvents(ctx, qx, ref);
    const replay = replaySession(ref, events, tiers, (tier, delta) => ctx.codec.applyDelta(tier, delta));
    ctx.replays.delete(key);
    ctx.replays.set(key, { marker, replay });
    if (ctx.replays.size > REPLAY_CACHE_SIZE) ctx.replays.delete(ctx.replays.keys().next().value as string);
    return { replay, row, tiers, shared };
  });
}

export function sortedEntries(
  record: StateRecord,
  updateTime: number,
  lastChange: (key: string) => ChangeSource | null,
  spellings: Map<string, string> = new Map(),
): StateEntry[] {
  return Object.keys(record)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((key) => {
      const written = spellings.get(key);
      return {
        key,
        value: record[key] as JsonValue,
        ...(written === undefined ? {} : { written }),
        updateTime,
        lastChange: lastChange(key),
      };
    });
}

export function changeSource(change: StateChange): ChangeSource {
  const { actor, reason, time, sourceUserId, sourceSessionId, eventId, eventSeq } = change;
  return { actor, reason, time, sourceUserId, sourceSessionId, eventId, eventSeq };
}
