// The native store's reads of one session: the session with its events, its summary, tiers and event pages.
import { join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { toNumber } from './dialect';
import { invalidInput, sessionNotFound } from '../../session-service/errors';
import { decodeEvent, SOURCE_COLUMNS, stateEntry, type EntryRow } from './rows';
import { scopeOfKey } from '../../session-service/scope';
import type { EventQuery, SessionRef } from '../../session-service/store';
import { decodeSnapshot, runSteps, runStepsAsync, sessionSnapshotSql, sqliteSessionRead, type SnapshotRow } from './session-snapshot';
import type { SqlExecutor } from '../../db/sql';
import type { GetSessionConfig, Page, Session, SessionSummary, SessionTiers, StateEntry, StoredEvent } from '../../session-service/types';
import { pageBounds } from '../../session-service/paging';
import { SESSION_COLUMNS, summaryOf, type SessionRow, type StoreContext } from './context';

export async function getSession(ctx: StoreContext, ref: SessionRef, config: GetSessionConfig = {}): Promise<Session | null> {
  const { numRecentEvents, afterTimestamp } = config;
  if (numRecentEvents !== undefined && (!Number.isInteger(numRecentEvents) || numRecentEvents < 0)) {
    throw invalidInput('numRecentEvents must be a non-negative integer.');
  }
  if (afterTimestamp !== undefined && !Number.isFinite(afterTimestamp)) {
    throw invalidInput('afterTimestamp must be a number of seconds.');
  }
  if (ctx.dialect === 'postgresql') {
    // One statement is one snapshot: no transaction needed (session-read.ts).
    const rows = await ctx.client.$queryRaw<SnapshotRow[]>(sessionSnapshotSql(ref, numRecentEvents, afterTimestamp));
    return decodeSnapshot(ref, rows);
  }
  const steps = () => sqliteSessionRead(ref, numRecentEvents, afterTimestamp);
  const now = ctx.client.$readNow?.((tx) => runSteps(steps(), (statement) => tx.queryRows(statement)));
  if (now) return now.result;
  return ctx.read((tx) => runStepsAsync(steps(), (statement) => tx.$queryRaw(statement)));
}

export async function getSessionSummary(ctx: StoreContext, ref: SessionRef): Promise<SessionSummary | null> {
  const row = await ctx.read((tx) => findSession(ctx, tx, ref));
  return row ? summaryOf(row) : null;
}

export async function getSessionTiers(ctx: StoreContext, ref: SessionRef): Promise<SessionTiers | null> {
  return ctx.read(async (tx) => {
    const row = await findSession(ctx, tx, ref);
    if (!row) return null;
    const [app, user, session] = await Promise.all([
      appEntries(ctx, tx, ref.appName),
      userEntries(ctx, tx, ref.appName, ref.userId),
      tx.$queryRaw<EntryRow[]>(
        sql`SELECT t.key, t.value, NULL AS update_time, ${raw(SOURCE_COLUMNS)} FROM session_state t
            LEFT JOIN state_changes h ON h.id = (
              SELECT MAX(c.id) FROM state_changes c WHERE c.app_name = ${ref.appName} AND c.scope = 'session'
                AND c.owner_user_id = ${ref.userId} AND c.owner_session_id = ${ref.sessionId} AND c.key = t.key)
            WHERE t.session_pk = ${toNumber(row.pk)} ORDER BY t.key`,
      ),
    ]);
    return { app, user, session: session.map(stateEntry) };
  });
}

export async function appEntries(ctx: StoreContext, tx: SqlExecutor, appName: string): Promise<StateEntry[]> {
  const rows = await tx.$queryRaw<EntryRow[]>(
    sql`SELECT t.key, t.value, t.update_time, ${raw(SOURCE_COLUMNS)} FROM app_state t
        LEFT JOIN state_changes h ON h.id = (
          SELECT MAX(c.id) FROM state_changes c WHERE c.app_name = t.app_name AND c.scope = 'app'
            AND c.owner_user_id = '' AND c.owner_session_id = '' AND c.key = t.key)
        WHERE t.app_name = ${appName} ORDER BY t.key`,
  );
  return rows.map(stateEntry);
}

export async function userEntries(ctx: StoreContext, tx: SqlExecutor, appName: string, userId: string): Promise<StateEntry[]> {
  const rows = await tx.$queryRaw<EntryRow[]>(
    sql`SELECT t.key, t.value, t.update_time, ${raw(SOURCE_COLUMNS)} FROM user_state t
        LEFT JOIN state_changes h ON h.id = (
          SELECT MAX(c.id) FROM state_changes c WHERE c.app_name = t.app_name AND c.scope = 'user'
            AND c.owner_user_id = t.user_id AND c.owner_session_id = '' AND c.key = t.key)
        WHERE t.app_name = ${appName} AND t.user_id = ${userId} ORDER BY t.key`,
  );
  return rows.map(stateEntry);
}

export function getAppState(ctx: StoreContext, appName: string): Promise<StateEntry[]> {
  return ctx.read((tx) => appEntries(ctx, tx, appName));
}

export function getUserState(ctx: StoreContext, appName: string, userId: string): Promise<StateEntry[]> {
  return ctx.read((tx) => userEntries(ctx, tx, appName, userId));
}

export async function listEvents(ctx: StoreContext, ref: SessionRef, query: EventQuery = {}): Promise<Page<StoredEvent>> {
  const { limit, offset } = pageBounds(query);
  return ctx.read(async (tx) => {
    const row = await findSession(ctx, tx, ref);
    if (!row) throw sessionNotFound(ref.sessionId);
    const conditions: Sql[] = [sql`e.session_pk = ${toNumber(row.pk)}`];
    if (query.afterSeq !== undefined) conditions.push(sql`e.seq > ${query.afterSeq}`);
    if (query.author !== undefined) conditions.push(sql`e.author = ${query.author}`);
    if (query.invocationId !== undefined) conditions.push(sql`e.invocation_id = ${query.invocationId}`);
    if (query.touchedKey !== undefined) {
      const { scope, key } = scopeOfKey(query.touchedKey);
      conditions.push(
        // The event id too: a deleted session's shared-tier history stays, and a new session may reuse its id.
        sql`EXISTS (SELECT 1 FROM state_changes c WHERE c.app_name = ${ref.appName}
              AND c.source_user_id = ${ref.userId} AND c.source_session_id = ${ref.sessionId}
              AND c.key = ${key} AND c.scope = ${scope} AND c.event_seq = e.seq AND c.event_id = e.id)`,
      );
    }
    const where = join(conditions, ' AND ');
    const order = query.newestFirst ? sql`e.seq DESC` : sql`e.seq`;
    const [rows, total] = await Promise.all([
      tx.$queryRaw<{ seq: unknown; data: string }[]>(
        sql`SELECT e.seq, e.data FROM events e WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
      ),
      tx.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM events e WHERE ${where}`),
    ]);
    return {
      items: rows.map((r) => ({ seq: toNumber(r.seq), event: decodeEvent(r.data) })),
      total: toNumber(total[0]?.n ?? 0),
    };
  });
}

export async function findSession(ctx: StoreContext, tx: SqlExecutor, ref: SessionRef): Promise<SessionRow | null> {
  const rows = await tx.$queryRaw<SessionRow[]>(
    sql`SELECT ${SESSION_COLUMNS} FROM sessions
        WHERE app_name = ${ref.appName} AND user_id = ${ref.userId} AND id = ${ref.sessionId}`,
  );
  return rows[0] ?? null;
}
