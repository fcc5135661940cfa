// How adk-js 2.0.0 stores a `datetime` property (sessions/db/schema.js) with
// MikroORM 6: INTEGER milliseconds on SQLite (its SqliteDriver maps Date to
// epoch ms), timestamptz on PostgreSQL, whole milliseconds either way since
// the values are JS Dates.
import type { AgentDialect, Param } from '../agent-db';
import type { TimeCodec } from '../family';

const PG_TIMESTAMPTZ = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d)(?::?(\d\d))?$/;

/** PostgreSQL's text form of a timestamptz (`2026-11-20 09:00:05.25+00`) as float seconds, sub-millisecond digits kept. */
export function parsePgTimestamptz(text: string): number {
  const match = PG_TIMESTAMPTZ.exec(text.trim());
  if (!match) throw new Error(`Unreadable timestamp: ${text}`);
  const [, date, time, fraction = '', hours = 'Z', minutes = '00'] = match;
  const offset = hours === 'Z' ? 'Z' : `${hours}:${minutes}`;
  return Date.parse(`${date}T${time}${offset}`) / 1000 + Number(`0${fraction || '.0'}`);
}

export function adkJsTime(dialect: AgentDialect): TimeCodec {
  return {
    decode(raw: unknown): number {
      if (typeof raw === 'number' || typeof raw === 'bigint') return Number(raw) / 1000;
      if (raw instanceof Date) return raw.getTime() / 1000;
      if (typeof raw === 'string') return /^\d+$/.test(raw) ? Number(raw) / 1000 : parsePgTimestamptz(raw);
      throw new Error(`Unreadable adk-js timestamp: ${String(raw)}`);
    },
    encode(seconds: number): Param {
      const ms = Math.round(seconds * 1000);
      return dialect === 'sqlite' ? ms : new Date(ms).toISOString();
    },
  };
}
