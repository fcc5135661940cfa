// DatabaseSessionService's PreciseTimestamp columns (sessions/schemas/shared.py):
// SQLAlchemy DateTime, so naive `YYYY-MM-DD HH:MM:SS.ffffff` text on SQLite,
// TIMESTAMP WITHOUT TIME ZONE on PostgreSQL (TIMESTAMPTZ after
// migrate_postgresql_timestamptz.py). Which clock a naive value is on
// depends on the ADK version and the column:
//   - events.timestamp: `datetime.fromtimestamp(event.timestamp)` (v1.py
//     StorageEvent.from_event), local time of the agent's machine; newer
//     versions write UTC.
//   - sessions.update_time on SQLite: `datetime.fromtimestamp(event.timestamp,
//     timezone.utc).replace(tzinfo=None)`, UTC; on PostgreSQL
//     `datetime.fromtimestamp(event.timestamp)`, local (database_session_service.py).
//   - app_states/user_states.update_time: `onupdate=func.now()`, the database's
//     clock (CURRENT_TIMESTAMP, UTC, on SQLite; now() in the server's TimeZone on PostgreSQL).
// So the clocks are learnt from the data itself (the event's JSON carries its
// float timestamp) rather than assumed, each as a zone whose rule applies per
// instant (clock.ts), and an event's own JSON timestamp decides its instant
// whenever it agrees with its column (python-db/index.ts).
import type { Param } from '../agent-db';
import type { TimeCodec, TimeColumn } from '../family';
import { fromWall, offsetAt, type Clock } from './clock';

/** A naive or zoned timestamp text as SQLite or PostgreSQL prints it. */
export function parseTimestamp(text: string): { seconds: number; zoned: boolean } {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(text.trim());
  if (!match) throw new Error(`Unreadable timestamp ${JSON.stringify(text)}`);
  const [, y, mo, d, h, mi, s, frac = '', zone] = match;
  const micros = Number(frac.padEnd(6, '0'));
  // Date.UTC would roll a day or month out of range over (MySQL's zero date `0000-00-00` becomes 1899-11-30) and maps
  // years below 100 to the 1900s; Python's datetime refuses such values, so they are no time here either.
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d) || Number(y) < 1) {
    throw new Error(`Unreadable timestamp ${JSON.stringify(text)}: no such date`);
  }
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) throw new Error(`Unreadable timestamp ${JSON.stringify(text)}: no such time`);
  let seconds = date.getTime() / 1000 + Number(h) * 3600 + Number(mi) * 60 + Number(s) + micros / 1e6;
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    seconds -= sign * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2, 4) || '0') * 60);
  }
  return { seconds, zoned: zone !== undefined };
}

/** `YYYY-MM-DD HH:MM:SS.ffffff` of these seconds on a clock `offset` seconds ahead of UTC: SQLAlchemy's SQLite storage format. */
export function formatNaive(seconds: number, offset: number): string {
  const micros = Math.round((seconds + offset) * 1e6);
  const whole = Math.floor(micros / 1e6);
  const date = new Date(whole * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(micros - whole * 1e6, 6)}`
  );
}

/** The clock of each naive column (zoned values carry their own offset). */
export interface NaiveClocks {
  event: Clock;
  sessionUpdate: Clock;
  tierUpdate: Clock;
  /** create_time, when its clock is known to differ from update_time's (MySQL: create_session's UTC wall time). */
  sessionCreate?: Clock;
}

export function clockOf(clocks: NaiveClocks, column: TimeColumn): Clock {
  if (column === 'sessionCreate') return clocks.sessionCreate ?? clocks.sessionUpdate;
  return column === 'event' ? clocks.event : column === 'tierUpdate' ? clocks.tierUpdate : clocks.sessionUpdate;
}

/** A stored value as float seconds: a driver's number or Date as it is, a zoned text by its offset, a naive one by its column's clock at that instant. */
export function decodeTimestamp(raw: unknown, clock: Clock): number {
  if (typeof raw === 'number') return raw;
  if (raw instanceof Date) return raw.getTime() / 1000;
  const { seconds, zoned } = parseTimestamp(String(raw));
  return zoned ? seconds : fromWall(clock, seconds);
}

export function naiveCodec(clocks: NaiveClocks, zonedColumns: boolean): TimeCodec {
  return {
    decode: (raw, column) => decodeTimestamp(raw, clockOf(clocks, column)),
    encode(seconds, column): Param {
      if (zonedColumns) return `${formatNaive(seconds, 0)}+00:00`;
      return formatNaive(seconds, offsetAt(clockOf(clocks, column), seconds));
    },
  };
}
