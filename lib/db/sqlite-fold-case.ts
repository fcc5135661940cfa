// SQLite's lower() folds ASCII letters only (without the ICU extension), so
// a case-insensitive test of 'ÉCLAIR' for 'éclair' fails. Every SQLite
// connection Statehouse opens gets a function that folds as JavaScript does;
// it costs a call into JavaScript per row (about 3x the built-in's time), so
// SQL uses it only when the text looked for has letters beyond ASCII: for an
// ASCII needle, folding the document's ASCII letters finds the same rows.
import type BetterSqlite3 from 'better-sqlite3';

/** The SQL name of the Unicode-folding lower(). */
export const SQLITE_FOLD_CASE = 'statehouse_lower';

/** Registers SQLITE_FOLD_CASE on the connection: text lower-cased as String.prototype.toLowerCase does; anything else as lower() takes it. */
export function registerFoldCase(db: BetterSqlite3.Database): void {
  db.function(SQLITE_FOLD_CASE, { deterministic: true }, (value: unknown) => {
    if (typeof value === 'string') return value.toLowerCase();
    if (Buffer.isBuffer(value)) return value.toString('utf8').toLowerCase();
    if (typeof value === 'number' || typeof value === 'bigint') return String(value);
    return null;
  });
}

/** Whether folding ASCII letters alone finds every match of the needle. */
export function asciiFoldSuffices(needle: string): boolean {
  return /^[\x00-\x7f]*$/.test(needle);
}

/** The SQLite function that lower-cases a document for a case-insensitive test of `needle`. */
export function sqliteLowerFor(needle: string): string {
  return asciiFoldSuffices(needle) ? 'lower' : SQLITE_FOLD_CASE;
}
