import { empty, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { sqliteLowerFor } from '../../db/sqlite-fold-case';

export type Dialect = 'sqlite' | 'postgresql';

/** Row lock for read-then-write; SQLite needs none, its write transaction is already exclusive. */
export function forUpdate(dialect: Dialect): Sql {
  return dialect === 'postgresql' ? sql` FOR UPDATE` : empty;
}

/** Snapshot isolation for multi-statement reads (SQLite transactions already read one snapshot). */
export function readIsolation(dialect: Dialect): { isolationLevel?: 'RepeatableRead' } {
  return dialect === 'postgresql' ? { isolationLevel: 'RepeatableRead' } : {};
}

/** Which part of a UNION read a row comes from, as a literal: PostgreSQL types a bare parameter in a select list as text. */
export function unionPart(n: number): Sql {
  return raw(String(n));
}

/**
 * A LIMIT's bound value, as `+?`. SQLite's planner reads a bare bound LIMIT,
 * and a statement whose plan read a parameter is prepared again every time it
 * is bound, so a cached statement with `LIMIT ?` was prepared anew on every
 * run (20-30 µs). PostgreSQL reads `+$1` as the same integer.
 */
export function boundLimit(limit: number): Sql {
  return sql`+${limit}`;
}

/** Drivers return 64-bit integers as bigint or string; the counts and ids here fit in a number. */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint' || typeof value === 'string') return Number(value);
  throw new TypeError(`Expected a number from the database, got ${typeof value}`);
}

export function toNumberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : toNumber(value);
}

/** Splits a list so that statements stay under SQLite's bound-variable limit. */
export function chunks<T>(items: T[], size = 500): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards escaped (use with ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `column` (an SQL expression) contains `text`, case-insensitively: LIKE over
 * both lower-cased, on SQLite through the Unicode-folding lower() when the
 * text has letters beyond ASCII (lib/db/sqlite-fold-case.ts).
 */
export function containsFolded(dialect: Dialect, column: string, text: string): Sql {
  const lower = dialect === 'sqlite' ? sqliteLowerFor(text) : 'LOWER';
  return sql`${raw(`${lower}(${column})`)} LIKE ${containsPattern(text)} ESCAPE '\\'`;
}
