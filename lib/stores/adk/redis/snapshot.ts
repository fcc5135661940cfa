// What one read of a Redis session store finds, in the form the mirror
// (mirror.ts) keeps: per session its tier text, times, revision and events,
// each as stored; per app and user its tier. Nothing here is parsed further
// than the layout needs to place it, so what cannot be read stays with its
// own session (the codec reports it, base/unreadable.ts).
import type { SessionRef } from '../../../session-service/store';

/** A value that makes a whole session unreadable, reported as the base reports a session row it cannot read. */
export interface BrokenField {
  field: string;
  raw: string;
  reason: string;
}

export interface SessionRecord {
  ref: SessionRef;
  /** The Redis key the session lives in. */
  key: string;
  /** The session tier as JSON text (or the stored text that is not one). */
  state: string | null;
  /** Seconds, or the stored text when it is no number. */
  update: number | string | null;
  create: number | string | null;
  /** adk-python's revision field (`str(int)`); null in the community layout. */
  revision: string | null;
  /** Each event of the stored list as JSON text, in the list's order. */
  events: string[];
  /** Set when the session cannot be assembled (its events list or the whole blob is not JSON). */
  broken?: BrokenField;
}

export interface TierRecord {
  appName: string;
  userId?: string;
  /** The tier as JSON text; a field whose value is not JSON makes it BROKEN text. */
  state: string;
}

export interface RedisSnapshot {
  sessions: SessionRecord[];
  apps: TierRecord[];
  users: TierRecord[];
}

const BROKEN = '\u0000unreadable\u0000';

/** The mirror's state text for a session or tier that cannot be read: it carries the field, the raw value and why. */
export function brokenText(broken: BrokenField): string {
  return BROKEN + JSON.stringify(broken);
}

export function brokenOf(text: unknown): BrokenField | null {
  if (typeof text !== 'string' || !text.startsWith(BROKEN)) return null;
  return JSON.parse(text.slice(BROKEN.length)) as BrokenField;
}

/** Python's float(): a number's text as adk-python reads `last_update_time` back; null when it is none. */
export function pythonFloat(text: string | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  if (!/^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** A tier hash (field -> JSON text of the value) as one JSON object's text; a value that is not JSON breaks the tier. */
export function tierText(hash: Record<string, string>, key: string): string {
  const parts: string[] = [];
  for (const [field, value] of Object.entries(hash)) {
    try {
      JSON.parse(value);
    } catch (error) {
      return brokenText({ field: `${key} ${field}`, raw: value, reason: error instanceof Error ? error.message : 'not JSON' });
    }
    parts.push(`${JSON.stringify(field)}:${value}`);
  }
  return `{${parts.join(',')}}`;
}

type TierAnswer = Record<string, string> | Error | undefined;

/** A tier hash as a pipeline answered it: its text, or a broken text for a read that failed. */
export function answeredTierText(hash: TierAnswer, key: string): string {
  return hash instanceof Error ? brokenText({ field: key, raw: key, reason: hash.message }) : tierText(hash ?? {}, key);
}

/** The same, read again after a write: null where the hash is gone (no fields). */
export function rereadTierText(hash: TierAnswer, key: string): string | null {
  return hash === undefined || (!(hash instanceof Error) && Object.keys(hash).length === 0) ? null : answeredTierText(hash, key);
}

/** Glob characters escaped, for SCAN MATCH over a literal prefix. */
export function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}

/**
 * The records a store read last time, by key and the raw text they came
 * from: a session whose stored text did not change is not parsed again
 * (parsing every event of every session at every read was most of a read's time).
 */
export class RecordMemo {
  private last = new Map<string, { raw: string; record: SessionRecord }>();
  private next = new Map<string, { raw: string; record: SessionRecord }>();

  /** The record for this raw text, built only when the text changed. */
  record(key: string, raw: string, build: () => SessionRecord): SessionRecord {
    const seen = this.last.get(key);
    const record = seen && seen.raw === raw ? seen.record : build();
    this.next.set(key, { raw, record });
    return record;
  }

  /** After a whole read: what was not seen is forgotten. */
  done(): void {
    this.last = this.next;
    this.next = new Map();
  }
}
