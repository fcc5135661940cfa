// The native store's state filters (operators, nested paths, any tier) as
// conditions on a session row `s`: each filter tests the state rows of its
// tier through the key's index, and its operator on the value in SQL.
import { join, Sql, sqltag as sql } from '@prisma/client/runtime/client';
import { encodeJson } from '../../session-service/json';
import { MAX_STATE_FILTERS, readingsOf, type ResolvedFilter, type StateFilter } from '../../session-service/state-filter';
import { invalidInput } from '../../session-service/errors';
import { jsonTest, type Condition } from '../json-conditions';
import type { Dialect } from './dialect';

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

/** The test of one reading on a state row's value column. */
function valueTest(dialect: Dialect, column: string, reading: ResolvedFilter, op: 'contains' | '=' | '<' | '>' | 'exists'): Sql {
  if (op === 'exists' && reading.path.length === 0) return sql`1 = 1`;
  // A whole string, boolean or null equals exactly its stored JSON text: an index-friendly compare.
  const value = reading.value;
  if (
    op === '=' &&
    reading.path.length === 0 &&
    value !== undefined &&
    typeof value !== 'number' &&
    (typeof value !== 'object' || value === null)
  ) {
    return toSql({ sql: `${column} = ?`, params: [encodeJson(value)] });
  }
  const doc = dialect === 'postgresql' ? `search_jsonb(${column})` : column;
  return toSql(jsonTest({ dialect, doc, rawText: column, path: reading.path, op, ...(value === undefined ? {} : { value }) }));
}

function readingTest(dialect: Dialect, access: TierAccess, reading: ResolvedFilter, op: 'contains' | '=' | '<' | '>' | 'exists'): Sql {
  if (reading.scope === 'session')
    return access.sessionsWith(sql`ss.key = ${reading.key} AND ${valueTest(dialect, 'ss.value', reading, op)}`);
  if (reading.scope === 'user') return access.usersWith(sql`us.key = ${reading.key} AND ${valueTest(dialect, 'us.value', reading, op)}`);
  return access.appHas(sql`a.key = ${reading.key} AND ${valueTest(dialect, 'a.value', reading, op)}`);
}

/** One condition per filter; `!=` holds where `=` does not (a session without the key differs). */
export function stateFilterConditions(dialect: Dialect, access: TierAccess, filters: StateFilter[]): Sql[] {
  if (filters.length > MAX_STATE_FILTERS) throw invalidInput(`At most ${MAX_STATE_FILTERS} state filters.`);
  return filters.map((filter) => {
    const readings = readingsOf(filter);
    const op = filter.op === '!=' ? '=' : filter.op;
    const any =
      readings.length === 0
        ? sql`1 = 0`
        : sql`(${join(
            readings.map((reading) => readingTest(dialect, access, reading, op)),
            ' OR ',
          )})`;
    return filter.op === '!=' ? sql`NOT ${any}` : any;
  });
}
