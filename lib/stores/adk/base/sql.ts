// SQL fragments the base builds its reads from, per dialect: quoting and
// the JSON tests a state search needs (TEXT holding JSON on SQLite, JSON or
// JSONB on PostgreSQL, LONGTEXT holding json.dumps on MySQL/MariaDB).
import { sqliteLowerFor } from '../../../db/sqlite-fold-case';
import type { AgentDialect, Param } from '../agent-db';
import type { JsonValue } from '../../../session-service/types';
import { pythonJsonDumps } from '../python/json-dumps';

export function q(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

export interface Fragment {
  sql: string;
  params: Param[];
}

/** A substring test, case-sensitive, no wildcards. */
export function contains(dialect: AgentDialect, column: string, needle: string): Fragment {
  if (dialect === 'sqlite') return { sql: `instr(${column}, ?) > 0`, params: [needle] };
  // MySQL compares text by the column's collation (case-insensitive by default): bytes are compared instead.
  if (dialect === 'mysql') return { sql: `instr(CAST(${column} AS BINARY), CAST(? AS BINARY)) > 0`, params: [needle] };
  return { sql: `strpos(${column}, ?) > 0`, params: [needle] };
}

/** A case-insensitive substring test. */
export function containsFolded(dialect: AgentDialect, column: string, needle: string): Fragment {
  const lower = dialect === 'sqlite' ? sqliteLowerFor(needle) : 'lower';
  return contains(dialect, `${lower}(${column})`, needle.toLowerCase());
}

// SQLite's json_each yields SQL values; this spells each back as JSON text to compare with the searched value.
const SQLITE_CANONICAL = `CASE j.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN 'null'
  WHEN 'text' THEN json_quote(j.value) ELSE json(j.value) END`;

/**
 * The blob in `column` has `key` (when given) holding `value` (when given);
 * with a value and no key, any key holding it.
 */
export function jsonHas(dialect: AgentDialect, column: string, key: string | undefined, value: JsonValue | undefined): Fragment {
  const params: Param[] = [];
  if (dialect === 'sqlite') {
    const tests: string[] = [];
    if (key !== undefined) {
      tests.push('j.key = ?');
      params.push(key);
    }
    if (value !== undefined) {
      tests.push(`${SQLITE_CANONICAL} = json(?)`);
      params.push(JSON.stringify(value));
    }
    return { sql: `EXISTS (SELECT 1 FROM json_each(${column}) j WHERE ${tests.join(' AND ') || '1'})`, params };
  }
  if (dialect === 'mysql') return mysqlJsonHas(column, key, value);
  const blob = `(${column})::jsonb`;
  if (key !== undefined && value !== undefined) return { sql: `(${blob} -> ?) = ?::jsonb`, params: [key, JSON.stringify(value)] };
  if (key !== undefined) return { sql: `jsonb_exists(${blob}, ?)`, params: [key] };
  return { sql: `EXISTS (SELECT 1 FROM jsonb_each(${blob}) j WHERE j.value = ?::jsonb)`, params: [JSON.stringify(value ?? null)] };
}

/** A JSON path naming one member of an object (`$."a key"`), quoted for MySQL/MariaDB's path syntax. */
function memberPath(key: string): string {
  return `$."${key.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/**
 * MySQL/MariaDB: JSON functions over the LONGTEXT blob (a blob that is not
 * JSON matches nothing). Values are compared as JSON (MariaDB's JSON_EQUALS),
 * the searched value spelt as json.dumps spells it (`\u00e9`, as stored).
 */
function mysqlJsonHas(column: string, key: string | undefined, value: JsonValue | undefined): Fragment {
  const valid = `JSON_VALID(${column})`;
  if (key !== undefined && value !== undefined) {
    return {
      sql: `(${valid} AND JSON_CONTAINS_PATH(${column}, 'one', ?) AND JSON_EQUALS(JSON_EXTRACT(${column}, ?), ?))`,
      params: [memberPath(key), memberPath(key), pythonJsonDumps(value)],
    };
  }
  if (key !== undefined) return { sql: `(${valid} AND JSON_CONTAINS_PATH(${column}, 'one', ?))`, params: [memberPath(key)] };
  return {
    sql: `(${valid} AND EXISTS (SELECT 1 FROM JSON_TABLE(CASE WHEN ${valid} THEN ${column} ELSE '{}' END, '$.*' COLUMNS (v JSON PATH '$')) j WHERE JSON_EQUALS(j.v, ?)))`,
    params: [pythonJsonDumps(value ?? null)],
  };
}
