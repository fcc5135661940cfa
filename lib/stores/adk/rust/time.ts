// adk-rust v2.0.0 timestamps (adk-session/src/sqlite.rs, postgres.rs): on
// SQLite TEXT from chrono's `to_rfc3339()` (`2026-11-20T09:00:01.123456789+00:00`,
// 0/3/6/9 fraction digits); on PostgreSQL TIMESTAMPTZ bound from
// `DateTime<Utc>` (microseconds).
import type { Param } from '../agent-db';
import type { TimeCodec } from '../family';
import { parsePgTimestamptz } from '../js/time';

const RFC3339 = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

export function parseRfc3339(text: string): number {
  const match = RFC3339.exec(text.trim());
  if (!match) return parsePgTimestamptz(text);
  const [, whole, fraction = '', offset = 'Z'] = match;
  return Date.parse(`${whole}${offset}`) / 1000 + Number(`0${fraction || '.0'}`);
}

/** chrono's to_rfc3339 (SecondsFormat::AutoSi, `+00:00`) for float seconds, to the microsecond a double holds. */
export function toRfc3339(seconds: number): string {
  const micros = Math.round(seconds * 1_000_000);
  const whole = Math.floor(micros / 1_000_000);
  const fraction = micros - whole * 1_000_000;
  const base = new Date(whole * 1000).toISOString().slice(0, 19);
  const digits =
    fraction === 0 ? '' : fraction % 1000 === 0 ? `.${String(fraction / 1000).padStart(3, '0')}` : `.${String(fraction).padStart(6, '0')}`;
  return `${base}${digits}+00:00`;
}

export function adkRustTime(): TimeCodec {
  return {
    decode(raw: unknown): number {
      if (raw instanceof Date) return raw.getTime() / 1000;
      if (typeof raw === 'string') return parseRfc3339(raw);
      throw new Error(`Unreadable adk-rust timestamp: ${String(raw)}`);
    },
    // PostgreSQL reads the same text into its timestamptz.
    encode: (seconds: number): Param => toRfc3339(seconds),
  };
}
