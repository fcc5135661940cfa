// SQL fragments the base builds its reads from, per dialect: quoting and
// the JSON tests a state search needs (TEXT holding JSON on SQLite, JSON or
// JSONB on PostgreSQL).
import type { AgentDialect, Param } from '../agent-db';
import type { JsonValue } from '../../../session-service/types';

export function q(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

export interface Fragment {
  sql: string;
  params: Param[];
}

/** A substring test, case-sensitive, no wildcards. */
export function contains(dialect: AgentDialect, column: string, needle: string): Fragment {
  return dialect === 'sqlite'
    ? { sql: `instr(${column}, ?) > 0`, params: [needle] }
    : { sql: `strpos(${column}, ?) > 0`, params: [needle] };
}

/** A case-insensitive substring test. */
export function containsFolded(dialect: AgentDialect, column: string, needle: string): Fragment {
  return contains(dialect, `lower(${column})`, needle.toLowerCase());
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
  const blob = `(${column})::jsonb`;
  if (key !== undefined && value !== undefined) return { sql: `(${blob} -> ?) = ?::jsonb`, params: [key, JSON.stringify(value)] };
  if (key !== undefined) return { sql: `jsonb_exists(${blob}, ?)`, params: [key] };
  return { sql: `EXISTS (SELECT 1 FROM jsonb_each(${blob}) j WHERE j.value = ?::jsonb)`, params: [JSON.stringify(value ?? null)] };
}
