// The native store's state history: per-key changes of events, of a key, of a user, and the tiers as of an event.
import { empty, join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { boundLimit, toNumber } from './dialect';
import { invalidInput, sessionNotFound } from '../../session-service/errors';
import { SOURCE_COLUMNS, stateChange, stateEntry, type ChangeRow, type EntryRow } from './rows';
import type { KeyHistoryRequest, PageRequest, SessionRef } from '../../session-service/store';
import type { SqlExecutor } from '../../db/sql';
import type { Page, SessionTiers, StateChange, StateEntry } from '../../session-service/types';
import type { StoreContext } from './context';
import { MAX_PAGE_SIZE, pageBounds } from '../../session-service/paging';
import { findSession } from './session-reads';
import type { ValueReadOptions } from '../../session-service/value-preview';
import { isLong, readPreviews, shortValue } from './value-preview';

const shortSql = (expr: string, alias: string) => shortValue(expr, alias).sql;

export async function listEventChanges(
  ctx: StoreContext,
  ref: SessionRef,
  seqs: number[],
  options: ValueReadOptions = {},
): Promise<StateChange[]> {
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
    const values = options.preview
      ? raw(
          `${shortSql('h.old_value', 'old_value')}, length(h.old_value) AS old_len, ${shortSql('h.new_value', 'new_value')}, length(h.new_value) AS new_len`,
        )
      : raw('h.old_value, h.new_value');
    const rows = await tx.$queryRaw<PreviewChangeRow[]>(
      sql`SELECT h.id, h.app_name, h.scope, h.owner_user_id, h.owner_session_id, h.key, ${values},
            ${raw(SOURCE_COLUMNS)} FROM state_changes h
          JOIN events e ON e.session_pk = ${toNumber(row.pk)} AND e.seq = h.event_seq AND e.id = h.event_id
          WHERE h.app_name = ${ref.appName} AND h.source_user_id = ${ref.userId}
            AND h.source_session_id = ${ref.sessionId} AND h.event_seq IN (${join([...new Set(seqs)])})
          ORDER BY h.event_seq, h.id`,
    );
    return changesWithPreviews(ctx, tx, rows);
  });
}

type PreviewChangeRow = ChangeRow & { old_len?: unknown; new_len?: unknown };

/** The changes of rows read with shortValue, each long side read as a preview. */
async function changesWithPreviews(ctx: StoreContext, tx: SqlExecutor, rows: PreviewChangeRow[]): Promise<StateChange[]> {
  const ids = (side: 'old' | 'new') =>
    rows
      .filter((r) => isLong(side === 'old' ? r.old_value : r.new_value, side === 'old' ? r.old_len : r.new_len))
      .map((r) => toNumber(r.id));
  const [oldIds, newIds] = [ids('old'), ids('new')];
  if (oldIds.length + newIds.length === 0) return rows.map(stateChange);
  const owners = [...oldIds.map((id) => `o${id}`), ...newIds.map((id) => `n${id}`)];
  const list = (some: string[], side: string) => {
    const ids = some.filter((owner) => owner.startsWith(side)).map((owner) => Number(owner.slice(1)));
    return ids.length === 0 ? sql`NULL` : join(ids);
  };
  const previews = await readPreviews(
    tx,
    ctx.dialect,
    owners,
    (some) => sql`SELECT 'o' || CAST(id AS TEXT), old_value FROM state_changes WHERE id IN (${list(some, 'o')})
      UNION ALL SELECT 'n' || CAST(id AS TEXT), new_value FROM state_changes WHERE id IN (${list(some, 'n')})`,
  );
  return rows.map((r) => {
    const change = stateChange(r);
    const id = toNumber(r.id);
    if (isLong(r.old_value, r.old_len)) change.oldValue = previews.get(`o${id}`) ?? null;
    if (isLong(r.new_value, r.new_len)) change.newValue = previews.get(`n${id}`) ?? null;
    return change;
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
              ${raw(SOURCE_COLUMNS)} FROM state_changes h WHERE ${where} ORDER BY h.id DESC LIMIT ${boundLimit(limit)} OFFSET ${offset}`,
      ),
      tx.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM state_changes h WHERE ${where}`),
    ]);
    return { items: rows.map(stateChange), total: toNumber(total[0]?.n ?? 0) };
  });
}

export async function getStateAsOf(
  ctx: StoreContext,
  ref: SessionRef,
  seq: number,
  options: ValueReadOptions = {},
): Promise<SessionTiers | null> {
  const preview = options.preview ?? false;
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
        preview,
      ),
      tierAsOf(
        ctx,
        tx,
        sql`c.scope = 'user' AND c.owner_user_id = ${ref.userId} AND c.owner_session_id = '' AND c.time <= ${time}`,
        ref.appName,
        preview,
      ),
      tierAsOf(
        ctx,
        tx,
        sql`c.scope = 'app' AND c.owner_user_id = '' AND c.owner_session_id = '' AND c.time <= ${time}`,
        ref.appName,
        preview,
      ),
    ]);
    return { app, user, session };
  });
}

export async function tierAsOf(ctx: StoreContext, tx: SqlExecutor, where: Sql, appName: string, preview = false): Promise<StateEntry[]> {
  // A NULL new_value is the key's removal; with `preview`, value is NULL for a long one too, told apart by its length.
  const value = preview
    ? raw(`${shortSql('h.new_value', 'value')}, length(h.new_value) AS value_len`)
    : raw('h.new_value AS value, NULL AS value_len');
  const rows = await tx.$queryRaw<(EntryRow & { id: unknown; value_len: unknown })[]>(
    sql`SELECT h.id, h.key, ${value}, h.time AS update_time, ${raw(SOURCE_COLUMNS)}
        FROM state_changes h WHERE h.id IN (
          SELECT MAX(c.id) FROM state_changes c WHERE c.app_name = ${appName} AND ${where} GROUP BY c.key)
        ORDER BY h.key`,
  );
  const present = rows.filter((r) => r.value !== null || isLong(r.value, r.value_len));
  const long = present.filter((r) => isLong(r.value, r.value_len)).map((r) => toNumber(r.id));
  if (long.length === 0) return present.map(stateEntry);
  const previews = await readPreviews(
    tx,
    ctx.dialect,
    long,
    (ids) => sql`SELECT id, new_value FROM state_changes WHERE id IN (${join(ids)})`,
  );
  return present.map((r) =>
    r.value === null ? { ...stateEntry({ ...r, value: 'null' }), value: previews.get(String(toNumber(r.id))) ?? null } : stateEntry(r),
  );
}

/** The SessionStore history reads of this file, for the facade (store.ts). */
export const historyReads = { listEventChanges, getKeyHistory, getUserHistory, getStateAsOf };
