/** Input limits shared by the HTTP API and the server actions. */
export const MAX_ID_LENGTH = 128;
export const MAX_KEY_LENGTH = 256;
export const MAX_KEYS_PER_DELTA = 1000;
export const MAX_JSON_DEPTH = 64;
/** A stored value may be as large as a default request body. */
export const MAX_VALUE_BYTES = 2 * 1024 * 1024;
export const MAX_REASON_LENGTH = 500;
export const MAX_TEMPLATE_LENGTH = 100_000;
/**
 * The largest sequence number, revision or row id there can be: those are
 * 32-bit integer columns on PostgreSQL, which fails a query comparing one to
 * a larger number instead of matching nothing.
 */
export const MAX_STORED_INTEGER = 2_147_483_647;
/**
 * The largest revision a client may send back: the stores ADK writes have no
 * revision column, so theirs is the session's update time in µs (above
 * MAX_STORED_INTEGER); a store refuses one it could never have issued as stale.
 */
export const MAX_REVISION = Number.MAX_SAFE_INTEGER;

/** A size as people read it: "2 MiB", "1.5 KiB", "900 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes.toLocaleString('en')} bytes`;
  const [size, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KiB'] : [bytes / (1024 * 1024), 'MiB'];
  return `${Number.isInteger(size) ? size : size.toFixed(1)} ${unit}`;
}

/**
 * Nesting limit of a whole request body. State values are held to
 * MAX_JSON_DEPTH (64) by lib/validation; this leaves room for the envelope
 * (event → actions → stateDelta → value) while stopping bodies so deep that
 * JSON.stringify would overflow the stack when storing them.
 */
export const MAX_BODY_DEPTH = 100;
