// The native store's state history: per-key changes of events, of a key, of a user, and the tiers as of an event.
import { empty, join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { toNumber } from './dialect';
import { invalidInput, sessionNotFound } from '../../session-service/errors';
import { SOURCE_COLUMNS, stateChange, stateEntry, type ChangeRow, type EntryRow } from './rows';
import type { KeyHistoryRequest, PageRequest, SessionRef } from '../../session-service/store';
import type { SqlExecutor } from '../../db/sql';
import type { Page, SessionTiers, StateChange, StateEntry } from '../../session-service/types';
import type { StoreContext } from './context';
import { MAX_PAGE_SIZE, pageBounds } from '../../session-service/paging';
import { findSession } from './session-reads';

export async function listEventChanges(ctx: StoreContext, ref: SessionRef, seqs: number[]): Promise<StateChange[]> {
  if (seqs.length > MAX_PAGE_SIZE) throw invalidInput(`At most ${MAX_PAGE_SIZE} events at a time.`);
  if (!seqs.every((seq) => Number.isInteger(seq) && seq > 0)) {
    throw invalidInput('Event sequence numbers must be positive integers.');
  }
  return ctx.read(async (tx) => {
    const row = await findSession(ctx, tx, ref);
    if (!row) throw sessionNotFound(ref.sessionId);
    if (seqs.length === 0) return [];
    // Joined to this session's events by seq AND id: shared-tier history
    // outlives a deleted session, and a new session may reuse its id.
    const rows = await tx.$queryRaw<ChangeRow[]>(
      sql`SELECT h.id, h.app_name, h.scope, h.owner_user_id, h.owner_session_id, h.key, h.old_value, h.new_value,
            ${raw(SOURCE_COLUMNS)} FROM state_changes h
          JOIN events e ON e.session_pk = ${toNumber(row.pk)} AND e.seq = h.event_seq AND e.id = h.event_id
          WHERE h.app_name = ${ref.appName} AND h.source_user_id = ${ref.userId}
            AND h.source_session_id = ${ref.sessionId} AND h.event_seq IN (${join([...new Set(seqs)])})
          ORDER BY h.event_seq, h.id`,
    );
    return rows.map(stateChange);
  });
}

export async function getKeyHistory(ctx: StoreContext, request: KeyHistoryRequest): Promise<Page<StateChange>> {
  const { limit, offset } = pageBounds(request);
  if (request.scope !== 'app' && !request.userId) throw invalidInput('userId is required for user and session history.');
  if (request.scope === 'session' && !request.sessionId) throw invalidInput('sessionId is required for session history.');
  const ownerUserId = request.scope === 'app' ? '' : (request.userId ?? '');
  const ownerSessionId = request.scope === 'session' ? (request.sessionId ?? '') : '';
  const where = sql`app_name = ${request.appName} AND scope = ${request.scope} AND owner_user_id = ${ownerUserId}
    AND owner_session_id = ${ownerSessionId} AND key = ${request.key}`;
  return history(ctx, where, limit, offset);
}

export async function getUserHistory(
  ctx: StoreContext,
  appName: string,
  userId: string,
  page?: PageRequest & { since?: number },
): Promise<Page<StateChange>> {
  const { limit, offset } = pageBounds(page);
  const since = page?.since === undefined ? empty : sql` AND time >= ${page.since}`;
  return history(ctx, sql`app_name = ${appName} AND owner_user_id = ${userId} AND scope = 'user'${since}`, limit, offset);
}

export function history(ctx: StoreContext, where: Sql, limit: number, offset: number): Promise<Page<StateChange>> {
  return ctx.read(async (tx) => {
    const [rows, total] = await Promise.all([
      tx.$queryRaw<ChangeRow[]>(
        sql`SELECT h.id, h.app_name, h.scope, h.owner_user_id, h.owner_session_id, h.key, h.old_value, h.new_value,
              ${raw(SOURCE_COLUMNS)} FROM state_changes h WHERE ${where} ORDER BY h.id DESC LIMIT ${limit} OFFSET ${offset}`,
      ),
      tx.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM state_changes h WHERE ${where}`),
    ]);
    return { items: rows.map(stateChange), total: toNumber(total[0]?.n ?? 0) };
  });
}

export async function getStateAsOf(ctx: StoreContext, ref: SessionRef, seq: number): Promise<SessionTiers | null> {
  return ctx.read(async (tx) => {
    const row = await findSession(ctx, tx, ref);
    if (!row) return null;
    const events = await tx.$queryRaw<{ timestamp: unknown }[]>(
      sql`SELECT timestamp FROM events WHERE session_pk = ${toNumber(row.pk)} AND seq = ${seq}`,
    );
    const event = events[0];
    if (!event) return null;
    const time = toNumber(event.timestamp);
    // The session tier replays exactly up to this event; the shared tiers
    // are taken from their history as of the event's time.
    const [session, user, app] = await Promise.all([
      tierAsOf(
        ctx,
        tx,
        sql`c.scope = 'session' AND c.owner_user_id = ${ref.userId} AND c.owner_session_id = ${ref.sessionId}
            AND (c.event_seq IS NULL OR c.event_seq <= ${seq})`,
        ref.appName,
      ),
      tierAsOf(
        ctx,
        tx,
        sql`c.scope = 'user' AND c.owner_user_id = ${ref.userId} AND c.owner_session_id = '' AND c.time <= ${time}`,
        ref.appName,
      ),
      tierAsOf(ctx, tx, sql`c.scope = 'app' AND c.owner_user_id = '' AND c.owner_session_id = '' AND c.time <= ${time}`, ref.appName),
    ]);
    return { app, user, session };
  });
}

export async function tierAsOf(ctx: StoreContext, tx: SqlExecutor, where: Sql, appName: string): Promise<StateEntry[]> {
  const rows = await tx.$queryRaw<(EntryRow & { new_value: string | null })[]>(
    sql`SELECT h.key, h.new_value, h.new_value AS value, h.time AS update_time, ${raw(SOURCE_COLUMNS)}
        FROM state_changes h WHERE h.id IN (
          SELECT MAX(c.id) FROM state_changes c WHERE c.app_name = ${appName} AND ${where} GROUP BY c.key)
        ORDER BY h.key`,
  );
  return rows.filter((r) => r.new_value !== null).map(stateEntry);
}

/** The SessionStore history reads of this file, for the facade (store.ts). */
export const historyReads = { listEventChanges, getKeyHistory, getUserHistory, getStateAsOf };
