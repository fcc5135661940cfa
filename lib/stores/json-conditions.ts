// The SQL of one state filter's test on a JSON document, per dialect: the
// native store tests a state row's value, an ADK store the state blob of a
// tier (with the key as the path's first segment). `?` placeholders.
import { sqliteLowerFor } from '../db/sqlite-fold-case';
import type { StateOperator } from '../session-service/state-filter';
import type { JsonValue } from '../session-service/types';

export type JsonDialect = 'sqlite' | 'postgresql' | 'mysql';

export interface Condition {
  sql: string;
  params: (string | number)[];
}

export interface JsonTest {
  dialect: JsonDialect;
  /** SQL of the document: JSON text (SQLite) or jsonb (PostgreSQL). */
  doc: string;
  /** SQL of the document as raw text, for a cheap first test of contains; omitted when there is none. */
  rawText?: string;
  path: string[];
  /** Every operator but !=, which the caller builds as "not =" (absent counts as different). */
  op: Exclude<StateOperator, '!='>;
  value?: JsonValue;
  /** SQLite and MySQL: the document may not be JSON (an agent's hand-edited row); test it first rather than fail the query. */
  untrusted?: boolean;
}

const FALSE: Condition = { sql: '1 = 0', params: [] };

/** SQLite's JSON path of the segments; null when a segment cannot be spelled in one (it holds a double quote). */
function sqlitePath(path: string[]): string | null {
  if (path.some((segment) => segment.includes('"'))) return null;
  return `$${path.map((segment) => `."${segment}"`).join('')}`;
}

/** A PostgreSQL text[] literal of the segments (for #> and #>>). */
function postgresPath(path: string[]): string {
  return `{${path.map((segment) => `"${segment.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/**
 * Text worth a raw first test: printable ASCII without a quote or a
 * backslash is spelled the same in any JSON text holding it (Python's
 * json.dumps escapes everything beyond ASCII, JavaScript's nothing).
 */
function plainNeedle(text: string): boolean {
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code > 0x7e || char === '"' || char === '\\') return false;
  }
  return true;
}

export function jsonTest(test: JsonTest): Condition {
  if (test.dialect === 'sqlite') return sqliteTest(test);
  if (test.dialect === 'mysql') return mysqlTest(test);
  return postgresTest(test);
}

function sqliteTest({ doc, rawText, path, op, value, untrusted }: JsonTest): Condition {
  const p = sqlitePath(path);
  if (p === null) return FALSE;
  const guard = untrusted ? `json_valid(${doc}) AND ` : '';
  const type = `json_type(${doc}, ?)`;
  const at = `json_extract(${doc}, ?)`;
  if (op === 'exists') return { sql: `${guard}${type} IS NOT NULL`, params: [p] };
  if (value === undefined) return FALSE;
  if (op === 'contains') {
    const needle = containsNeedle(value);
    const first = rawText !== undefined && plainNeedle(needle) ? { sql: `instr(lower(${rawText}), ?) > 0 AND `, params: [needle] } : null;
    return {
      sql: `${first?.sql ?? ''}${guard}instr(${sqliteLowerFor(needle)}(CASE ${type} WHEN 'text' THEN ${at} ELSE ${doc} -> ? END), ?) > 0`,
      params: [...(first?.params ?? []), p, p, p, needle],
    };
  }
  if (op === '=') {
    if (typeof value === 'string') return { sql: `${guard}${type} = 'text' AND ${at} = ?`, params: [p, p, value] };
    if (typeof value === 'number') return { sql: `${guard}${type} IN ('integer', 'real') AND ${at} = ?`, params: [p, p, value] };
    if (typeof value === 'boolean' || value === null) return { sql: `${guard}${type} = ?`, params: [p, String(value)] };
    return { sql: `${guard}(${doc} -> ?) = json(?)`, params: [p, JSON.stringify(value)] };
  }
  const compare = op === '<' ? '<' : '>';
  if (typeof value === 'number') return { sql: `${guard}${type} IN ('integer', 'real') AND ${at} ${compare} ?`, params: [p, p, value] };
  if (typeof value === 'string') return { sql: `${guard}${type} = 'text' AND ${at} ${compare} ?`, params: [p, p, value] };
  return FALSE;
}

function postgresTest({ doc, rawText, path, op, value }: JsonTest): Condition {
  const p = postgresPath(path);
  const node = `(${doc} #> CAST(? AS text[]))`;
  const text = `(${doc} #>> CAST(? AS text[]))`;
  if (op === 'exists') return { sql: `${node} IS NOT NULL`, params: [p] };
  if (value === undefined) return FALSE;
  if (op === 'contains') {
    const needle = containsNeedle(value);
    const first = rawText !== undefined && plainNeedle(needle) ? { sql: `strpos(lower(${rawText}), ?) > 0 AND `, params: [needle] } : null;
    return {
      sql: `${first?.sql ?? ''}strpos(lower(CASE WHEN jsonb_typeof(${node}) = 'string' THEN ${text} ELSE CAST(${node} AS TEXT) END), ?) > 0`,
      params: [...(first?.params ?? []), p, p, p, needle],
    };
  }
  if (op === '=') return { sql: `${node} = CAST(? AS jsonb)`, params: [p, JSON.stringify(value)] };
  const compare = op === '<' ? '<' : '>';
  if (typeof value === 'number') {
    return {
      sql: `jsonb_typeof(${node}) = 'number' AND CAST(${text} AS numeric) ${compare} CAST(? AS numeric)`,
      params: [p, p, String(value)],
    };
  }
  if (typeof value === 'string') {
    return {
      sql: `jsonb_typeof(${node}) = 'string' AND ${text} COLLATE "C" ${compare} CAST(? AS TEXT) COLLATE "C"`,
      params: [p, p, value],
    };
  }
  return FALSE;
}

/**
 * MySQL and MariaDB (JSON there is LONGTEXT): JSON_EXTRACT, JSON_TYPE and
 * JSON_UNQUOTE, which both have; objects and arrays have no canonical form to
 * compare in both, so = on one finds nothing.
 */
function mysqlTest({ doc, rawText, path, op, value, untrusted }: JsonTest): Condition {
  const p = sqlitePath(path);
  if (p === null) return FALSE;
  const guard = untrusted ? `JSON_VALID(${doc}) AND ` : '';
  const node = `JSON_EXTRACT(${doc}, ?)`;
  const type = `JSON_TYPE(${node})`;
  const text = `JSON_UNQUOTE(${node})`;
  const numeric = `${type} IN ('INTEGER', 'UNSIGNED INTEGER', 'DOUBLE', 'DECIMAL')`;
  if (op === 'exists') return { sql: `${guard}${node} IS NOT NULL`, params: [p] };
  if (value === undefined) return FALSE;
  if (op === 'contains') {
    const needle = containsNeedle(value);
    const first =
      rawText !== undefined && plainNeedle(needle) ? { sql: `instr(lower(CAST(${rawText} AS CHAR)), ?) > 0 AND `, params: [needle] } : null;
    return {
      sql: `${first?.sql ?? ''}${guard}instr(lower(CASE WHEN ${type} = 'STRING' THEN ${text} ELSE CAST(${node} AS CHAR) END), ?) > 0`,
      params: [...(first?.params ?? []), p, p, p, needle],
    };
  }
  if (op === '=') {
    if (typeof value === 'string')
      return { sql: `${guard}${type} = 'STRING' AND CAST(${text} AS BINARY) = CAST(? AS BINARY)`, params: [p, p, value] };
    if (typeof value === 'number') return { sql: `${guard}${numeric} AND ${text} + 0 = ?`, params: [p, p, value] };
    if (typeof value === 'boolean') return { sql: `${guard}${type} = 'BOOLEAN' AND ${text} = ?`, params: [p, p, String(value)] };
    if (value === null) return { sql: `${guard}${type} = 'NULL'`, params: [p] };
    return FALSE;
  }
  const compare = op === '<' ? '<' : '>';
  if (typeof value === 'number') return { sql: `${guard}${numeric} AND ${text} + 0 ${compare} ?`, params: [p, p, value] };
  if (typeof value === 'string') {
    return { sql: `${guard}${type} = 'STRING' AND CAST(${text} AS BINARY) ${compare} CAST(? AS BINARY)`, params: [p, p, value] };
  }
  return FALSE;
}

/** What contains looks for, lower-cased as the SQL lower-cases the document. */
function containsNeedle(value: JsonValue): string {
  return (typeof value === 'string' ? value : JSON.stringify(value)).toLowerCase();
}
