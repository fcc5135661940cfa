import { empty, join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { chunks, type Dialect } from './dialect';
import { encodeSpelled, type ValueSpellings } from '../../session-service/value-spelling';
import type { SqlExecutor } from '../../db/sql';
import type { ChangeSource, JsonValue, Scope } from '../../session-service/types';

/** Whose tier is written: the app's, one user's, or one session's. */
export interface TierOwner {
  scope: Scope;
  appName: string;
  userId: string;
  sessionId: string;
  /** Required for the session tier. */
  sessionPk?: number;
}

/** `undefined` as a value removes the key. */
export type TierChanges = [key: string, value: JsonValue | undefined][];

/** Each written key's value before the write, as stored JSON text (null: absent), read under the write's locks. */
export type OldValues = Map<string, string | null>;

interface TierTable {
  table: Sql;
  /** `col = value AND ...` selecting this owner's rows. */
  owner: Sql;
  /** Column list and values of the owner, for inserts. */
  ownerColumns: Sql;
  ownerValues: Sql;
  hasUpdateTime: boolean;
}

const TIER_TABLES: Record<Scope, string> = { app: 'app_state', user: 'user_state', session: 'session_state' };

function tierTable(owner: TierOwner): TierTable {
  const keys = ownerKeys(owner);
  return {
    table: raw(TIER_TABLES[owner.scope]),
    owner: join(
      keys.map(([column, value]) => sql`${raw(column)} = ${value}`),
      ' AND ',
    ),
    ownerColumns: raw(keys.map(([column]) => column).join(', ')),
    ownerValues: join(keys.map(([, value]) => sql`${value}`)),
    hasUpdateTime: owner.scope !== 'session',
  };
}

/** The columns that say whose a tier row is, with this owner's values. */
function ownerKeys(owner: TierOwner): [column: string, value: string | number][] {
  switch (owner.scope) {
    case 'app':
      return [['app_name', owner.appName]];
    case 'user':
      return [
        ['app_name', owner.appName],
        ['user_id', owner.userId],
      ];
    case 'session':
      if (owner.sessionPk === undefined) throw new Error('session tier write without a session');
      return [['session_pk', owner.sessionPk]];
  }
}

/**
 * Writes keys of one tier and records each change in the history, inside the
 * caller's transaction, in two statements per tier on both databases (each
 * statement is a round trip on PostgreSQL and a prepare on SQLite: they are
 * most of an append's cost).
 *
 * SQLite: one INSERT records the history, reading each old value in a
 * subquery, then one upsert writes the values. The caller's transaction
 * already holds SQLite's write lock (its first statement wrote), so nothing
 * can change in between.
 *
 * PostgreSQL: the keys that do not exist yet are inserted first (ON CONFLICT
 * DO NOTHING waits for a concurrent inserter of the same key, then yields to
 * it); then one statement locks the existing rows in key order (so concurrent
 * writers of the same keys serialise instead of deadlocking), updates them
 * and records the history with the old values read under those locks. No lost
 * updates, and every history row has the value it replaced.
 */
export async function writeTier(
  tx: SqlExecutor,
  dialect: Dialect,
  owner: TierOwner,
  changes: TierChanges,
  cause: ChangeSource,
  { returnOld = false, spellings }: { returnOld?: boolean; spellings?: ValueSpellings | undefined } = {},
): Promise<OldValues> {
  const replaced: OldValues = new Map();
  if (changes.length === 0) return replaced;
  const tier = tierTable(owner);
  const sorted = [...changes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const sets: EncodedSet[] = [];
  const removals: string[] = [];
  for (const [key, value] of sorted) {
    if (value === undefined) removals.push(key);
    else sets.push([key, encodeSpelled(value, spellings?.get(key))]);
  }
  for (const batch of chunks(sets, SET_BATCH)) {
    const rows =
      dialect === 'postgresql'
        ? await setKeysPostgres(tx, tier, owner, batch, cause, returnOld)
        : await setKeysSqlite(tx, tier, owner, batch, cause, returnOld);
    for (const row of rows) replaced.set(row.key, row.old_value);
  }
  for (const batch of chunks(removals)) {
    const rows = await tx.$queryRaw<{ key: string; value: string }[]>(
      sql`DELETE FROM ${tier.table} WHERE ${tier.owner} AND key IN (${join(batch)}) RETURNING key, value`,
    );
    const old = new Map(rows.map((row) => [row.key, row.value]));
    for (const key of batch) replaced.set(key, old.get(key) ?? null);
    const history = batch.flatMap((key) => {
      const oldValue = old.get(key);
      return oldValue === undefined ? [] : [{ key, oldValue, newValue: null }];
    });
    await recordChanges(tx, owner, history, cause);
  }
  return replaced;
}

type EncodedSet = readonly [key: string, value: string];

/** Keys per statement: the history insert binds 2 values a key, the upsert up to 5 (SQLite allows 32,766). */
const SET_BATCH = 500;

/** `(ord, key, value)` rows, in key order. */
function inputRows(batch: EncodedSet[], dialect: Dialect): Sql {
  const text = (value: string) => (dialect === 'postgresql' ? sql`CAST(${value} AS TEXT)` : sql`${value}`);
  return join(batch.map(([key, value], i) => sql`(${raw(String(i))}, ${text(key)}, ${text(value)})`));
}

/** INSERT INTO state_changes ... SELECT over `input` (ord, key, value) and an old-value expression; optionally returning each key's old value. */
function historyFromInput(dialect: Dialect, owner: TierOwner, cause: ChangeSource, oldValue: Sql, from: Sql, returnOld: boolean): Sql {
  const ownerUserId = owner.scope === 'app' ? '' : owner.userId;
  const ownerSessionId = owner.scope === 'session' ? owner.sessionId : '';
  const float = (value: number) => (dialect === 'postgresql' ? sql`CAST(${value} AS DOUBLE PRECISION)` : sql`${value}`);
  const int = (value: number | null) => (dialect === 'postgresql' ? sql`CAST(${value} AS INTEGER)` : sql`${value}`);
  const text = (value: string | null) => (dialect === 'postgresql' ? sql`CAST(${value} AS TEXT)` : sql`${value}`);
  return sql`INSERT INTO state_changes (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
      source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
    SELECT ${text(owner.appName)}, ${text(owner.scope)}, ${text(ownerUserId)}, ${text(ownerSessionId)}, input.key, ${oldValue}, input.value,
      ${text(cause.sourceUserId)}, ${text(cause.sourceSessionId)}, ${text(cause.eventId)}, ${int(cause.eventSeq)},
      ${text(cause.actor)}, ${text(cause.reason)}, ${float(cause.time)}
    FROM ${from} ORDER BY input.ord${returnOld ? sql` RETURNING key, old_value` : empty}`;
}

interface ReplacedRow {
  key: string;
  old_value: string | null;
}

/** Runs a history insert, reading back the old values only when asked (most writes do not need them). */
async function insertHistory(tx: SqlExecutor, statement: Sql, returnOld: boolean): Promise<ReplacedRow[]> {
  if (returnOld) return tx.$queryRaw<ReplacedRow[]>(statement);
  await tx.$executeRaw(statement);
  return [];
}

/** One batch of a tier's keys set, with their history rows; the old values when asked. */
type SetKeys = (
  tx: SqlExecutor,
  tier: TierTable,
  owner: TierOwner,
  batch: EncodedSet[],
  cause: ChangeSource,
  returnOld: boolean,
) => Promise<ReplacedRow[]>;

const setKeysSqlite: SetKeys = async (tx, tier, owner, batch, cause, returnOld) => {
  // History first (it reads the old values), so the tier rows are written
  // after: each with the id of its history row, which the trigger on
  // state_changes could not set on a row that did not exist yet.
  const oldValue = sql`(SELECT t.value FROM ${tier.table} t WHERE ${tier.owner} AND t.key = input.key)`;
  const history = await tx.$queryRaw<(ReplacedRow & { id: unknown })[]>(
    sql`WITH input(ord, key, value) AS (VALUES ${inputRows(batch, 'sqlite')})
        ${historyFromInput('sqlite', owner, cause, oldValue, sql`input`, false)} RETURNING id, key, old_value`,
  );
  const changeIds = new Map(history.map((row) => [row.key, row.id]));
  const columns = tier.hasUpdateTime
    ? sql`${tier.ownerColumns}, key, value, update_time, last_change_id`
    : sql`${tier.ownerColumns}, key, value, last_change_id`;
  const rows = join(
    batch.map(([key, value]) => {
      const id = changeIds.get(key) ?? null;
      return tier.hasUpdateTime
        ? sql`(${tier.ownerValues}, ${key}, ${value}, ${cause.time}, ${id})`
        : sql`(${tier.ownerValues}, ${key}, ${value}, ${id})`;
    }),
  );
  const updateTime = tier.hasUpdateTime ? sql`, update_time = excluded.update_time` : empty;
  await tx.$executeRaw(
    sql`INSERT INTO ${tier.table} (${columns}) VALUES ${rows}
        ON CONFLICT (${tier.ownerColumns}, key) DO UPDATE SET value = excluded.value${updateTime}, last_change_id = excluded.last_change_id`,
  );
  return returnOld ? history.map(({ key, old_value }) => ({ key, old_value })) : [];
};

const setKeysPostgres: SetKeys = async (tx, tier, owner, batch, cause, returnOld) => {
  const inserted = await insertMissing(tx, tier, batch, cause.time);
  const existing = batch.filter(([key]) => !inserted.has(key));
  const input = sql`(VALUES ${inputRows(batch, 'postgresql')}) AS input(ord, key, value)`;
  if (existing.length === 0)
    return insertHistory(tx, historyFromInput('postgresql', owner, cause, sql`CAST(NULL AS TEXT)`, input, returnOld), returnOld);
  const keys = join(existing.map(([key]) => key));
  const cases = join(
    existing.map(([key, value]) => sql`WHEN ${key} THEN CAST(${value} AS TEXT)`),
    ' ',
  );
  const updateTime = tier.hasUpdateTime ? sql`, update_time = CAST(${cause.time} AS DOUBLE PRECISION)` : empty;
  // The UPDATE takes its keys from an uncorrelated subquery over `old`, which
  // PostgreSQL evaluates once before the UPDATE runs: every row is locked,
  // in key order, before any is changed.
  return insertHistory(
    tx,
    sql`WITH old AS MATERIALIZED (
          SELECT key, value FROM ${tier.table} WHERE ${tier.owner} AND key IN (${keys}) ORDER BY key FOR UPDATE
        ), updated AS (
          UPDATE ${tier.table} SET value = CASE key ${cases} END${updateTime}
          WHERE ${tier.owner} AND key = ANY (ARRAY(SELECT key FROM old))
        )
        ${historyFromInput('postgresql', owner, cause, sql`old.value`, sql`${input} LEFT JOIN old ON old.key = input.key`, returnOld)}`,
    returnOld,
  );
};

/** Inserts the keys that do not exist yet; returns those it inserted (their old value is "absent"). */
async function insertMissing(tx: SqlExecutor, tier: TierTable, encoded: EncodedSet[], time: number): Promise<Set<string>> {
  const columns = tier.hasUpdateTime ? sql`${tier.ownerColumns}, key, value, update_time` : sql`${tier.ownerColumns}, key, value`;
  const rows = join(
    encoded.map(([key, value]) =>
      tier.hasUpdateTime ? sql`(${tier.ownerValues}, ${key}, ${value}, ${time})` : sql`(${tier.ownerValues}, ${key}, ${value})`,
    ),
  );
  const inserted = await tx.$queryRaw<{ key: string }[]>(
    sql`INSERT INTO ${tier.table} (${columns}) VALUES ${rows} ON CONFLICT DO NOTHING RETURNING key`,
  );
  return new Set(inserted.map((row) => row.key));
}

interface HistoryRow {
  key: string;
  oldValue: string | null;
  newValue: string | null;
}

export async function recordChanges(tx: SqlExecutor, owner: TierOwner, rows: HistoryRow[], cause: ChangeSource): Promise<void> {
  const ownerUserId = owner.scope === 'app' ? '' : owner.userId;
  const ownerSessionId = owner.scope === 'session' ? owner.sessionId : '';
  for (const batch of chunks(rows, 200)) {
    const values = join(
      batch.map(
        (row) =>
          sql`(${owner.appName}, ${owner.scope}, ${ownerUserId}, ${ownerSessionId}, ${row.key}, ${row.oldValue}, ${row.newValue}, ${cause.sourceUserId}, ${cause.sourceSessionId}, ${cause.eventId}, ${cause.eventSeq}, ${cause.actor}, ${cause.reason}, ${cause.time})`,
      ),
    );
    await tx.$executeRaw(
      sql`INSERT INTO state_changes (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value, source_user_id, source_session_id, event_id, event_seq, actor, reason, time) VALUES ${values}`,
    );
  }
}
