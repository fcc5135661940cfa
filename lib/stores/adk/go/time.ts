// adk-go's time.Time columns (`gorm:"precision:6"`), per driver:
//   - SQLite (github.com/glebarez/sqlite, a modernc fork): `time.Time.String()`
//     text, `2026-01-01 10:00:01.25 +0200 CEST` (fraction trimmed, up to 9
//     digits; a monotonic ` m=+0.0123` suffix when the value still has one),
//     the writer's own zone; the driver also reads `2006-01-02 15:04:05.999999999-07:00`.
//   - PostgreSQL: timestamptz(6), absolute.
//   - MySQL (go-sql-driver, loc=UTC by default): datetime(6), the UTC wall time;
//     the zero time.Time as the zero date `0000-00-00 00:00:00`.
// The stale check compares `UnixMicro()` (truncated), so instants are kept to
// the microsecond, truncated, here too.
import type { AgentDialect, Param } from '../agent-db';
import type { TimeCodec } from '../family';

const GO_STRING = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))? ([+-])(\d{2})(\d{2}) (\S+)(?: m=[+-]\d+(?:\.\d+)?)?$/;
const ISO_LIKE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?\s*(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/** Where the clock of a SQLite store's writer is: its offset in seconds and the zone abbreviation Go prints. */
export interface GoZone {
  offset: number;
  name: string;
}

export const GO_UTC: GoZone = { offset: 0, name: 'UTC' };

function wallSeconds(y: string, mo: string, d: string, h: string, mi: string, s: string, frac: string | undefined, text: string): number {
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d) || Number(y) < 1)
    throw new Error(`Unreadable time ${JSON.stringify(text)}: no such date`);
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) throw new Error(`Unreadable time ${JSON.stringify(text)}: no such time`);
  const micros = Number((frac ?? '').padEnd(9, '0').slice(0, 6));
  return date.getTime() / 1000 + Number(h) * 3600 + Number(mi) * 60 + Number(s) + micros / 1e6;
}

/** Float seconds (whole microseconds) of a stored adk-go time, and the zone it was printed in (SQLite's text). */
export function parseGoTime(raw: unknown): { seconds: number; zone: GoZone | null } {
  if (raw instanceof Date) return { seconds: Math.floor(raw.getTime() * 1000) / 1e6, zone: null };
  const text = String(raw).trim();
  const go = GO_STRING.exec(text);
  if (go) {
    const [, y, mo, d, h, mi, s, frac, sign, oh, om, name] = go;
    const offset = (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60);
    return { seconds: wallSeconds(y!, mo!, d!, h!, mi!, s!, frac, text) - offset, zone: { offset, name: name! } };
  }
  const iso = ISO_LIKE.exec(text);
  if (!iso) throw new Error(`Unreadable time ${JSON.stringify(text)}`);
  const [, y, mo, d, h, mi, s, frac, , sign, oh, om] = iso;
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om ?? 0) * 60) : 0;
  return { seconds: wallSeconds(y!, mo!, d!, h!, mi!, s!, frac, text) - offset, zone: null };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function wall(seconds: number, offset: number): { date: string; micros: number } {
  const micros = Math.round((seconds + offset) * 1e6);
  const whole = Math.floor(micros / 1e6);
  const d = new Date(whole * 1000);
  return {
    date: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
    micros: micros - whole * 1e6,
  };
}

/** `time.Time.String()` of these seconds in this zone: the fraction with trailing zeros trimmed (none when whole). */
export function goTimeString(seconds: number, zone: GoZone): string {
  const { date, micros } = wall(seconds, zone.offset);
  const fraction = micros === 0 ? '' : `.${pad(micros, 6).replace(/0+$/, '')}`;
  const sign = zone.offset < 0 ? '-' : '+';
  const abs = Math.abs(zone.offset);
  return `${date}${fraction} ${sign}${pad(Math.floor(abs / 3600))}${pad(Math.floor((abs % 3600) / 60))} ${zone.name}`;
}

/** What each driver stores for Go's zero time.Time (a tier row GORM's Save inserted carries it). */
export const GO_ZERO_TIME: Record<AgentDialect, string> = {
  sqlite: '0001-01-01 00:00:00 +0000 UTC',
  postgresql: '0001-01-01 00:00:00+00',
  mysql: '0000-00-00 00:00:00',
};

export function adkGoTime(dialect: AgentDialect, zone: GoZone): TimeCodec {
  return {
    decode: (raw) => parseGoTime(raw).seconds,
    encode(seconds): Param {
      if (dialect === 'sqlite') return goTimeString(seconds, zone);
      const { date, micros } = wall(seconds, 0);
      return dialect === 'postgresql' ? `${date}.${pad(micros, 6)}+00:00` : `${date}.${pad(micros, 6)}`;
    },
  };
}
