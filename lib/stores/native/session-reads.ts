// The native store's reads of one session: the session with its events, its summary, tiers and event pages.
import { join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { boundLimit, containsFolded, toNumber } from './dialect';
import { invalidInput, sessionNotFound } from '../../session-service/errors';
import { decodeEvent, SOURCE_COLUMNS, stateEntry, type EntryRow } from './rows';
import { scopeOfKey } from '../../session-service/scope';
import type { EventQuery, SessionRef } from '../../session-service/store';
import { decodeSnapshot, runSteps, runStepsAsync, sessionSnapshotSql, sqliteSessionRead, type SnapshotRow } from './session-snapshot';
import type { SqlExecutor } from '../../db/sql';
import { prepared } from '../../db/prepared';
import type {
  Event,
  GetSessionConfig,
  Page,
  Session,
  SessionSummary,
  SessionTiers,
  StateEntry,
  StoredEvent,
} from '../../session-service/types';
import type { ValueReadOptions } from '../../session-service/value-preview';
import { isLong, previewsOfLong, shortValue } from './value-preview';

/** An event's own containers: walked into, never cut whole, as the page cuts an event field by field (lib/data/session-cut.ts). */
const EVENT_FIELDS = ['', '/actions', '/actions/stateDelta'];
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
    const rows = await ctx.client.$queryRaw<SnapshotRow[]>(prepared(sessionSnapshotSql(ref, numRecentEvents, afterTimestamp)));
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

/**
 * The three tiers in one statement (one round trip, one snapshot, so no
 * transaction): a row for the session (part 0, with its summary) when it
 * exists, then each tier's keys (1 app, 2 user, 3 session). As previews,
 * long values are read by a second statement in the same snapshot.
 */
export async function getSessionTiers(ctx: StoreContext, ref: SessionRef, options: ValueReadOptions = {}): Promise<SessionTiers | null> {
  if (options.preview) return ctx.read((tx) => sessionTierPreviews(ctx, tx, ref));
  const rows = await ctx.client.$queryRaw<TierRow[]>(sessionTiersSql(ref));
  return tiersOf(ref, rows, stateEntry);
}

/** The session's own columns, on part 0 of sessionTiersSql (NULL on the tiers' rows). */
interface SummaryColumns {
  revision: unknown;
  last_seq: unknown;
  create_time: unknown;
}

type TierRow = EntryRow & SummaryColumns & { part: unknown; value_len?: unknown };

function tiersOf(ref: SessionRef, rows: TierRow[], entry: (row: TierRow) => StateEntry): SessionTiers | null {
  const session = rows.find((row) => toNumber(row.part) === 0);
  if (!session) return null;
  const tier = (part: number) => rows.filter((row) => toNumber(row.part) === part).map(entry);
  const summary = summaryOf({ ...session, app_name: ref.appName, user_id: ref.userId, id: ref.sessionId, pk: null });
  return { app: tier(1), user: tier(2), session: tier(3), summary };
}

async function sessionTierPreviews(ctx: StoreContext, tx: SqlExecutor, ref: SessionRef): Promise<SessionTiers | null> {
  const rows = await tx.$queryRaw<TierRow[]>(sessionTiersSql(ref, true));
  const long = rows.filter((row) => isLong(row.value, row.value_len)).map((row) => `${toNumber(row.part)}:${row.key}`);
  const keys = (owners: string[], part: number) => {
    const inPart = owners.filter((owner) => owner.startsWith(`${part}:`)).map((owner) => owner.slice(2));
    return inPart.length === 0 ? sql`NULL` : join(inPart);
  };
  const previews = await previewsOfLong(
    tx,
    ctx.dialect,
    long,
    (owners) => sql`SELECT '1:' || key, value FROM app_state WHERE app_name = ${ref.appName} AND key IN (${keys(owners, 1)})
        UNION ALL SELECT '2:' || key, value FROM user_state WHERE app_name = ${ref.appName} AND user_id = ${ref.userId} AND key IN (${keys(owners, 2)})
        UNION ALL SELECT '3:' || t.key, t.value FROM session_state t JOIN sessions s ON s.pk = t.session_pk
          WHERE s.app_name = ${ref.appName} AND s.user_id = ${ref.userId} AND s.id = ${ref.sessionId} AND t.key IN (${keys(owners, 3)})`,
  );
  return tiersOf(ref, rows, (row) =>
    previews && isLong(row.value, row.value_len)
      ? { ...stateEntry({ ...row, value: 'null' }), value: previews.get(`${toNumber(row.part)}:${row.key}`) ?? null }
      : stateEntry(row),
  );
}

/** With `preview`, each value is short or NULL, with its length (value_len) beside it. */
export function sessionTiersSql(ref: SessionRef, preview = false): Sql {
  const value = (expr: string) =>
    preview ? join([shortValue(expr, 'value'), raw(`length(${expr}) AS value_len`)], ', ') : raw(`${expr} AS value`);
  // Typed: a subquery's untyped NULL would be text to PostgreSQL.
  const none = raw('CAST(NULL AS INTEGER) AS revision, CAST(NULL AS INTEGER) AS last_seq, CAST(NULL AS DOUBLE PRECISION) AS create_time');
  const noEntry = raw(
    `NULL AS key, NULL AS value, ${preview ? 'NULL AS value_len, ' : ''}update_time, NULL AS actor, NULL AS reason, NULL AS time, NULL AS source_user_id, NULL AS source_session_id, NULL AS event_id, NULL AS event_seq`,
  );
  return sql`SELECT 0 AS part, ${noEntry}, revision, last_seq, create_time FROM sessions WHERE app_name = ${ref.appName} AND user_id = ${ref.userId} AND id = ${ref.sessionId}
    UNION ALL SELECT * FROM (SELECT 1 AS part, t.key, ${value('t.value')}, t.update_time, ${raw(SOURCE_COLUMNS)}, ${none} FROM app_state t
      LEFT JOIN state_changes h ON h.id = t.last_change_id WHERE t.app_name = ${ref.appName}) a
    UNION ALL SELECT * FROM (SELECT 2 AS part, t.key, ${value('t.value')}, t.update_time, ${raw(SOURCE_COLUMNS)}, ${none} FROM user_state t
      LEFT JOIN state_changes h ON h.id = t.last_change_id WHERE t.app_name = ${ref.appName} AND t.user_id = ${ref.userId}) u
    UNION ALL SELECT * FROM (SELECT 3 AS part, t.key, ${value('t.value')}, CAST(NULL AS DOUBLE PRECISION) AS update_time, ${raw(SOURCE_COLUMNS)}, ${none} FROM session_state t
      JOIN sessions s ON s.pk = t.session_pk LEFT JOIN state_changes h ON h.id = t.last_change_id
      WHERE s.app_name = ${ref.appName} AND s.user_id = ${ref.userId} AND s.id = ${ref.sessionId}) s
    ORDER BY part, key`;
}

/*
 * A tier's keys, each with its latest history row (who set it, when, through
 * which event): found by the tier row's last_change_id, a primary-key lookup
 * whatever the planner's statistics say.
 */
export function sessionEntriesSql(sessionPk: number): Sql {
  return sql`SELECT t.key, t.value, NULL AS update_time, ${raw(SOURCE_COLUMNS)} FROM session_state t
      LEFT JOIN state_changes h ON h.id = t.last_change_id
      WHERE t.session_pk = ${sessionPk} ORDER BY t.key`;
}

export function appEntriesSql(appName: string): Sql {
  return sql`SELECT t.key, t.value, t.update_time, ${raw(SOURCE_COLUMNS)} FROM app_state t
      LEFT JOIN state_changes h ON h.id = t.last_change_id
      WHERE t.app_name = ${appName} ORDER BY t.key`;
}

export function userEntriesSql(appName: string, userId: string): Sql {
  return sql`SELECT t.key, t.value, t.update_time, ${raw(SOURCE_COLUMNS)} FROM user_state t
      LEFT JOIN state_changes h ON h.id = t.last_change_id
      WHERE t.app_name = ${appName} AND t.user_id = ${userId} ORDER BY t.key`;
}

export async function appEntries(ctx: StoreContext, tx: SqlExecutor, appName: string): Promise<StateEntry[]> {
  const rows = await tx.$queryRaw<EntryRow[]>(appEntriesSql(appName));
  return rows.map(stateEntry);
}

export async function userEntries(ctx: StoreContext, tx: SqlExecutor, appName: string, userId: string): Promise<StateEntry[]> {
  const rows = await tx.$queryRaw<EntryRow[]>(userEntriesSql(appName, userId));
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
    if (query.text) {
      // The event's text as the search index keeps it (search_docs, kind 'event', kept by a trigger on events).
      conditions.push(
        sql`(${containsFolded(ctx.dialect, 'e.author', query.text)} OR EXISTS (SELECT 1 FROM search_docs d WHERE d.store_id = 'native'
              AND d.app_name = ${ref.appName} AND d.user_id = ${ref.userId} AND d.session_id = ${ref.sessionId}
              AND d.kind = 'event' AND d.key = CAST(e.seq AS TEXT) AND ${containsFolded(ctx.dialect, 'd.body', query.text)}))`,
      );
    }
    if (query.from !== undefined) conditions.push(sql`e.timestamp >= ${query.from}`);
    if (query.to !== undefined) conditions.push(sql`e.timestamp <= ${query.to}`);
    if (query.errors) conditions.push(eventHasError(ctx.dialect));
    if (query.tool !== undefined) conditions.push(eventCallsTool(ctx.dialect, query.tool));
    const where = join(conditions, ' AND ');
    const order = query.newestFirst ? sql`e.seq DESC` : sql`e.seq`;
    const data = query.preview ? join([shortValue('e.data', 'data'), raw('length(e.data) AS data_len')], ', ') : raw('e.data');
    const [rows, total] = await Promise.all([
      tx.$queryRaw<{ seq: unknown; data: string | null; data_len?: unknown }[]>(
        sql`SELECT e.seq, ${data} FROM events e WHERE ${where} ORDER BY ${order} LIMIT ${boundLimit(limit)} OFFSET ${offset}`,
      ),
      tx.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM events e WHERE ${where}`),
    ]);
    const long = rows.filter((r) => isLong(r.data, r.data_len)).map((r) => toNumber(r.seq));
    const eventsOf = (seqs: number[]) =>
      sql`SELECT e.seq, e.data FROM events e WHERE e.session_pk = ${toNumber(row.pk)} AND e.seq IN (${join(seqs)})`;
    const previews = await previewsOfLong(tx, ctx.dialect, long, eventsOf, EVENT_FIELDS);
    return {
      items: rows.map((r) => ({
        seq: toNumber(r.seq),
        event: previews && r.data === null ? (previews.get(String(toNumber(r.seq))) as unknown as Event) : decodeEvent(r.data ?? 'null'),
      })),
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

/** The stored event (e.data, JSON text) has an error code or message. */
function eventHasError(dialect: StoreContext['dialect']): Sql {
  return dialect === 'postgresql'
    ? sql`(search_jsonb(e.data) ->> 'errorCode' IS NOT NULL OR search_jsonb(e.data) ->> 'errorMessage' IS NOT NULL)`
    : sql`(json_extract(e.data, '$.errorCode') IS NOT NULL OR json_extract(e.data, '$.errorMessage') IS NOT NULL)`;
}

/** The stored event calls or answers the tool `name`. */
function eventCallsTool(dialect: StoreContext['dialect'], name: string): Sql {
  return dialect === 'postgresql'
    ? sql`EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(search_jsonb(e.data) #> '{content,parts}') = 'array'
            THEN search_jsonb(e.data) #> '{content,parts}' ELSE '[]'::jsonb END) p
          WHERE p #>> '{functionCall,name}' = ${name} OR p #>> '{functionResponse,name}' = ${name})`
    : sql`EXISTS (SELECT 1 FROM json_each(e.data, '$.content.parts') p WHERE p.type = 'object'
          AND (json_extract(p.value, '$.functionCall.name') = ${name} OR json_extract(p.value, '$.functionResponse.name') = ${name}))`;
}

/** The SessionStore reads of this file, for the facade (store.ts). */
export const sessionReads = { getSession, getSessionSummary, getSessionTiers, getAppState, getUserState, listEvents };
