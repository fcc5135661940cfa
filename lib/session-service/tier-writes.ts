import { join, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { chunks, forUpdate, type Dialect } from './dialect';
import { encodeJson } from './json';
import type { SqlExecutor } from './sql';
import type { JsonValue, Scope } from './types';

/** Whose tier is written: the app's, one user's, or one session's. */
export interface TierOwner {
  scope: Scope;
  appName: string;
  userId: string;
  sessionId: string;
  /** Required for the session tier. */
  sessionPk?: number;
}

/** What caused a change; stored with every history row. */
export interface ChangeCause {
  actor: string;
  reason: string | null;
  time: number;
  sourceUserId: string | null;
  sourceSessionId: string | null;
  eventId: string | null;
  eventSeq: number | null;
}

/** `undefined` as a value removes the key. */
export type TierChanges = [key: string, value: JsonValue | undefined][];

interface TierTable {
  table: Sql;
  /** `col = value AND ...` selecting this owner's rows. */
  owner: Sql;
  /** Column list and values of the owner, for inserts. */
  ownerColumns: Sql;
  ownerValues: Sql;
  hasUpdateTime: boolean;
}

function tierTable(owner: TierOwner): TierTable {
  switch (owner.scope) {
    case 'app':
      return {
        table: sql`app_state`,
        owner: sql`app_name = ${owner.appName}`,
        ownerColumns: sql`app_name`,
        ownerValues: sql`${owner.appName}`,
        hasUpdateTime: true,
      };
    case 'user':
      return {
        table: sql`user_state`,
        owner: sql`app_name = ${owner.appName} AND user_id = ${owner.userId}`,
        ownerColumns: sql`app_name, user_id`,
        ownerValues: sql`${owner.appName}, ${owner.userId}`,
        hasUpdateTime: true,
      };
    case 'session':
      if (owner.sessionPk === undefined) throw new Error('session tier write without a session');
      return {
        table: sql`session_state`,
        owner: sql`session_pk = ${owner.sessionPk}`,
        ownerColumns: sql`session_pk`,
        ownerValues: sql`${owner.sessionPk}`,
        hasUpdateTime: false,
      };
  }
}

/**
 * Writes keys of one tier and records each change in the history, inside the
 * caller's transaction. Keys are locked in sorted order (PostgreSQL: row
 * locks), so concurrent writers of the same keys serialise instead of
 * deadlocking, and every old value is read after its lock: no lost updates.
 */
export async function writeTier(
  tx: SqlExecutor,
  dialect: Dialect,
  owner: TierOwner,
  changes: TierChanges,
  cause: ChangeCause,
): Promise<void> {
  if (changes.length === 0) return;
  const tier = tierTable(owner);
  const sorted = [...changes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const oldValues = new Map<string, string | null>();
  const sets = sorted.filter((change): change is [string, JsonValue] => change[1] !== undefined);
  const removals = sorted.filter(([, value]) => value === undefined).map(([key]) => key);

  for (const batch of chunks(sets)) {
    const encoded = batch.map(([key, value]) => [key, encodeJson(value)] as const);
    const inserted = await insertMissing(tx, tier, encoded, cause.time);
    for (const key of inserted) oldValues.set(key, null);
    const existing = encoded.filter(([key]) => !inserted.has(key));
    if (existing.length === 0) continue;
    const keys = existing.map(([key]) => key);
    const rows = await tx.$queryRaw<{ key: string; value: string }[]>(
      sql`SELECT key, value FROM ${tier.table} WHERE ${tier.owner} AND key IN (${join(keys)}) ORDER BY key${forUpdate(dialect)}`,
    );
    for (const row of rows) oldValues.set(row.key, row.value);
    const cases = join(
      existing.map(([key, value]) => sql`WHEN ${key} THEN ${value}`),
      ' ',
    );
    const updateTime = tier.hasUpdateTime ? sql`, update_time = ${cause.time}` : sql``;
    await tx.$executeRaw(
      sql`UPDATE ${tier.table} SET value = CASE key ${cases} END${updateTime} WHERE ${tier.owner} AND key IN (${join(keys)})`,
    );
  }
  for (const batch of chunks(removals)) {
    const rows = await tx.$queryRaw<{ key: string; value: string }[]>(
      sql`DELETE FROM ${tier.table} WHERE ${tier.owner} AND key IN (${join(batch)}) RETURNING key, value`,
    );
    for (const row of rows) oldValues.set(row.key, row.value);
  }

  const history = sorted
    .filter(([key, value]) => value !== undefined || oldValues.get(key) != null)
    .map(([key, value]) => ({
      key,
      oldValue: oldValues.get(key) ?? null,
      newValue: value === undefined ? null : encodeJson(value),
    }));
  await recordChanges(tx, owner, history, cause);
}

/** Inserts the keys that do not exist yet; returns those it inserted (their old value is "absent"). */
async function insertMissing(
  tx: SqlExecutor,
  tier: TierTable,
  encoded: (readonly [string, string])[],
  time: number,
): Promise<Set<string>> {
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

export async function recordChanges(tx: SqlExecutor, owner: TierOwner, rows: HistoryRow[], cause: ChangeCause): Promise<void> {
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
