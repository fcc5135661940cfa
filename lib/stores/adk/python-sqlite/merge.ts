// How SqliteSessionService merges a state delta into a stored tier. The file
// does not say which rule its agent ran (no metadata table, and both rules
// leave the same kinds of rows), so the newest is the default and the older
// one is an option of the store location (`?merge=json_patch`).
//   update: adk-python 2.8.0 and later (e4ba7040, #6728; read at 04c135ff):
//           `dict.update()`: a delta key replaces the stored value whole,
//           a null is stored as null; the delta's keys come first in the
//           rewritten object, then the stored keys it did not name.
//   json_patch: adk-python 1.19.0 up to 2.7.x (read at dbb2f201): SQLite's
//           json_patch, RFC 7396: a null removes the key, objects merge.
import type { StateRecord } from '../../../session-service/types';
import { patchDelta, unionDelta } from '../base/replay';
import type { StateMergeRule } from '../family';

export type SqliteMergeRule = StateMergeRule;

export const SQLITE_MERGE_RULES: readonly SqliteMergeRule[] = ['update', 'json_patch'];

export function isSqliteMergeRule(value: string): value is SqliteMergeRule {
  return (SQLITE_MERGE_RULES as readonly string[]).includes(value);
}

/** One json_each row back as the JSON value it was: objects and arrays as JSON, booleans as JSON, scalars as they are. */
const VALUE = `CASE WHEN type IN ('object','array') THEN json(value) WHEN type IN ('true','false') THEN json(type) ELSE value END`;

/**
 * The SQL expression of `stateSql` after `deltaSql` (both JSON text expressions), by the rule.
 * For `update` this is the delta's entries followed by the stored entries whose key the delta lacks,
 * gathered into one object, which is the row adk-python's `dict.update()` merge leaves.
 */
export function mergeSql(rule: SqliteMergeRule, stateSql: string, deltaSql: string): string {
  if (rule === 'json_patch') return `json_patch(${stateSql}, ${deltaSql})`;
  return `(SELECT json_group_object(key, ${VALUE}) FROM (
    SELECT key, value, type FROM json_each(${deltaSql})
    UNION ALL
    SELECT key, value, type FROM json_each(${stateSql}) WHERE key NOT IN (SELECT key FROM json_each(${deltaSql}))))`;
}

/** The stored object without the keys listed in the JSON array `keysSql`, its order kept. */
export function withoutKeysSql(stateSql: string, keysSql: string): string {
  return `(SELECT json_group_object(key, ${VALUE}) FROM json_each(${stateSql}) WHERE key NOT IN (SELECT value FROM json_each(${keysSql})))`;
}

/** The same merge in memory, for replay (history, time travel). */
export function applyMerge(rule: SqliteMergeRule): (tier: StateRecord, delta: StateRecord) => StateRecord {
  return rule === 'json_patch' ? patchDelta : unionDelta;
}
