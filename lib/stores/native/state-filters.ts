// The native store's state filters (operators, nested paths, any tier) as
// conditions on a session row `s`: each filter tests the state rows of its
// tier through the key's index, and its operator on the value in SQL.
import { join, Sql, sqltag as sql } from '@prisma/client/runtime/client';
import { encodeJson } from '../../session-service/json';
import { MAX_STATE_FILTERS, readingsOf, type ResolvedFilter, type StateFilter } from '../../session-service/state-filter';
import { invalidInput } from '../../session-service/errors';
import { jsonTest, type Condition } from '../json-conditions';
import type { Dialect } from './dialect';

/** How much of a value the index on (key, value prefix) holds: state values can be megabytes, an index entry cannot. */
export const VALUE_PREFIX = 200;

/** A `?`-placeholder condition as a Prisma fragment. */
function toSql(condition: Condition): Sql {
  return new Sql(condition.sql.split('?'), condition.params);
}

/** How a session's rows of a tier are reached: through a probe per session (a user's few) or membership (an app's many). */
export interface TierAccess {
  sessionsWith(condition: Sql): Sql;
  usersWith(condition: Sql): Sql;
  appHas(condition: Sql): Sql;
}

/** A whole string, boolean or null compared with `=`: its stored JSON text is looked up through the index on the value. */
function isExactCompare(reading: ResolvedFilter, op: string): boolean {
  const value = reading.value;
  return (
    op === '=' &&
    reading.path.length === 0 &&
    value !== undefined &&
    typeof value !== 'number' &&
    (typeof value !== 'object' || value === null)
  );
}

/** A filter that finds its few sessions through an index: every reading an exact compare. */
function drives(filter: StateFilter): boolean {
  const readings = readingsOf(filter);
  return filter.op === '=' && readings.length > 0 && readings.every((reading) => isExactCompare(reading, filter.op));
}

/**
 * The test of one reading on a state row's value column; `jsonbColumn`, where
 * the table keeps the value as jsonb (session_state on PostgreSQL, null for
 * values over 8 KiB), is read instead of casting the text on every row.
 */
function valueTest(
  dialect: Dialect,
  column: string,
  reading: ResolvedFilter,
  op: 'contains' | '=' | '<' | '>' | 'exists',
  jsonbColumn?: string,
): Sql {
  if (op === 'exists' && reading.path.length === 0) return sql`1 = 1`;
  // A whole string, boolean or null equals exactly its stored JSON text: an index-friendly compare.
  const value = reading.value;
  if (isExactCompare(reading, op) && value !== undefined) {
    const text = encodeJson(value);
    return toSql({ sql: `substr(${column}, 1, ${VALUE_PREFIX}) = ? AND ${column} = ?`, params: [text.slice(0, VALUE_PREFIX), text] });
  }
  const test = (doc: string) =>
    jsonTest({ dialect, doc, rawText: column, path: reading.path, op, ...(value === undefined ? {} : { value }) });
  if (dialect !== 'postgresql') return toSql(test(column));
  // The value is cast to jsonb once per row: the test names the document up to four times, and an inlined
  // search_jsonb would cast it each time (OFFSET 0 keeps the planner from inlining the subquery).
  const once = test('d.j');
  const cast = { sql: `(SELECT ${once.sql} FROM (SELECT search_jsonb(${column}) AS j OFFSET 0) d)`, params: once.params };
  if (jsonbColumn === undefined) return toSql(cast);
  const stored = test(jsonbColumn);
  return toSql({
    sql: `CASE WHEN ${jsonbColumn} IS NOT NULL THEN ${stored.sql} ELSE ${cast.sql} END`,
    params: [...stored.params, ...cast.params],
  });
}

function readingTest(dialect: Dialect, access: TierAccess, reading: ResolvedFilter, op: 'contains' | '=' | '<' | '>' | 'exists'): Sql {
  if (reading.scope === 'session')
    return access.sessionsWith(sql`ss.key = ${reading.key} AND ${valueTest(dialect, 'ss.value', reading, op, 'ss.value_jsonb')}`);
  if (reading.scope === 'user') return access.usersWith(sql`us.key = ${reading.key} AND ${valueTest(dialect, 'us.value', reading, op)}`);
  return access.appHas(sql`a.key = ${reading.key} AND ${valueTest(dialect, 'a.value', reading, op)}`);
}

/**
 * One condition per filter; `!=` holds where `=` does not (a session without
 * the key differs). When a filter finds its sessions through the value index
 * (an exact compare), the others are probed per session (`probe`) rather than
 * evaluated over every state row of their key: the sessions come from the
 * most selective filter, and a nested path's JSON is read for those only.
 */
export function stateFilterConditions(dialect: Dialect, access: TierAccess, filters: StateFilter[], probe: TierAccess = access): Sql[] {
  if (filters.length > MAX_STATE_FILTERS) throw invalidInput(`At most ${MAX_STATE_FILTERS} state filters.`);
  const driven = filters.some(drives);
  return filters.map((filter) => {
    const reach = driven && !drives(filter) ? probe : access;
    const readings = readingsOf(filter);
    const op = filter.op === '!=' ? '=' : filter.op;
    const any =
      readings.length === 0
        ? sql`1 = 0`
        : sql`(${join(
            readings.map((reading) => readingTest(dialect, reach, reading, op)),
            ' OR ',
          )})`;
    return filter.op === '!=' ? sql`NOT ${any}` : any;
  });
}
