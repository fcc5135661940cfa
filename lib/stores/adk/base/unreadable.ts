// Values of an agent's database that Statehouse cannot read as its ADK
// writes them. Such a value is reported where it is (its column, its raw
// text, why) and never travels further than its own session: an event is
// shown marked unreadable, a session row that cannot be assembled answers
// UNREADABLE (422), and every list reads past it.
import { unreadableRow } from '../../../session-service/errors';
import type { Event, JsonValue, Part, UnreadableNote } from '../../../session-service/types';

/** Nesting beyond this is refused before parsing: adk-python's json.loads gives up near 1,000 levels, and rendering or re-serialising deeper values overflows the stack. */
export const MAX_JSON_DEPTH = 512;
/** How much of a raw value a note keeps. */
const RAW_LIMIT = 2000;
/** datetime.min and datetime.max (to a double's precision there) in epoch seconds: what Python can represent, and within what a JS Date can. */
const EARLIEST_SECONDS = -62_135_596_800;
const LATEST_SECONDS = 253_402_300_800;

export class UnreadableValueError extends Error {
  readonly note: UnreadableNote;

  constructor(column: string, raw: unknown, reason: string) {
    super(`${column}: ${reason}`);
    this.name = 'UnreadableValueError';
    this.note = { column, raw: rawText(raw), reason };
  }
}

/** A stored value as text for a note, cut to a readable length. */
export function rawText(raw: unknown): string {
  let text: string;
  if (raw === null || raw === undefined) text = 'NULL';
  else if (typeof raw === 'string') text = raw;
  else if (raw instanceof Date) text = Number.isNaN(raw.getTime()) ? 'Invalid Date' : raw.toISOString();
  else if (typeof raw === 'number' || typeof raw === 'bigint' || typeof raw === 'boolean') text = String(raw);
  else if (Buffer.isBuffer(raw)) text = `<${raw.length} bytes>`;
  else text = Object.prototype.toString.call(raw);
  return text.length > RAW_LIMIT ? `${text.slice(0, RAW_LIMIT)}… (${text.length.toLocaleString('en')} characters)` : text;
}

/** The deepest nesting of a JSON text, counted without parsing (brackets inside strings do not count). */
function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (quoted) {
      if (char === 92) index++;
      else if (char === 34) quoted = false;
    } else if (char === 34) quoted = true;
    else if (char === 91 || char === 123) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (char === 93 || char === 125) depth--;
  }
  return deepest;
}

/** A JSON column's value (text, or what a driver already parsed) as JSON, or UnreadableValueError naming the column. */
export function readJson(raw: unknown, column: string): JsonValue {
  if (raw === null || raw === undefined) throw new UnreadableValueError(column, raw, 'NULL where a JSON value belongs');
  if (typeof raw !== 'string') {
    if (Buffer.isBuffer(raw)) return readJson(raw.toString('utf8'), column);
    return raw as JsonValue;
  }
  if (raw.trim() === '') throw new UnreadableValueError(column, raw, 'empty text where a JSON value belongs');
  if (jsonDepth(raw, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new UnreadableValueError(column, raw, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return JSON.parse(raw) as JsonValue;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new UnreadableValueError(column, raw, `not JSON (${why}); NaN and Infinity are not JSON either`);
  }
}

export function isJsonObject(value: JsonValue | undefined): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A state blob or an event's JSON: a JSON object, or UnreadableValueError. */
export function readObject(raw: unknown, column: string): Record<string, JsonValue> {
  const value = readJson(raw, column);
  if (!isJsonObject(value)) throw new UnreadableValueError(column, raw, `a JSON object belongs here, not ${describe(value)}`);
  return value;
}

export function describe(value: JsonValue | undefined): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Seconds a timestamp decoded to, refused when no datetime can hold them (NaN, 1e300, beyond year 9999). */
export function checkInstant(seconds: number, column: string, raw: unknown): number {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) throw new UnreadableValueError(column, raw, 'not a timestamp');
  if (seconds < EARLIEST_SECONDS || seconds > LATEST_SECONDS) {
    throw new UnreadableValueError(column, raw, 'a timestamp outside the years 1 to 9999');
  }
  return seconds;
}

/** Any error of a decoder as a note on the column it was reading. */
export function noteOf(error: unknown, column: string, raw: unknown): UnreadableNote {
  if (error instanceof UnreadableValueError) return error.note;
  return { column, raw: rawText(raw), reason: error instanceof Error ? error.message : String(error) };
}

/** The 422 a read or write of a session answers when one of its own rows cannot be read. */
export function unreadableSession(what: string, note: UnreadableNote) {
  return unreadableRow(
    `${what} cannot be read: its ${note.column} holds ${JSON.stringify(note.raw)}, ${note.reason}. ` +
      'Other sessions are unaffected; fix or remove the row in the agent’s database to read this one.',
  );
}

const isPart = (part: unknown): part is Part => typeof part === 'object' && part !== null && !Array.isArray(part);

/**
 * An event as the console renders it: the fields the views rely on have
 * their types (content an object whose parts are objects, a timestamp a
 * datetime can hold, the action maps objects). What does not fit is kept
 * aside in a note, so a stored event with a null part still shows.
 */
export function checkedEvent(event: Event): Event {
  const notes: UnreadableNote[] = [...(event.unreadable ?? [])];
  const out: Event = { ...event };
  if (typeof out.id !== 'string') out.id = String(out.id ?? '');
  if (typeof out.author !== 'string') {
    notes.push({ column: 'author', raw: rawText(JSON.stringify(out.author ?? null)), reason: 'an author must be a string' });
    out.author = '';
  }
  if (typeof out.invocationId !== 'string') out.invocationId = String(out.invocationId ?? '');
  try {
    out.timestamp = checkInstant(out.timestamp, 'timestamp', out.timestamp);
  } catch (error) {
    notes.push(noteOf(error, 'timestamp', out.timestamp));
    out.timestamp = 0;
  }
  const content = out.content as unknown;
  if (content !== undefined && content !== null) {
    if (typeof content !== 'object' || Array.isArray(content)) {
      notes.push({ column: 'content', raw: rawText(JSON.stringify(content)), reason: 'content must be an object' });
      delete out.content;
    } else {
      const parts = (content as { parts?: unknown }).parts;
      if (parts !== undefined && parts !== null && !Array.isArray(parts)) {
        notes.push({ column: 'content.parts', raw: rawText(JSON.stringify(parts)), reason: 'parts must be a list' });
        out.content = { ...content, parts: [] };
      } else if (Array.isArray(parts) && !parts.every(isPart)) {
        parts.forEach((part, index) => {
          if (!isPart(part)) {
            notes.push({ column: `content.parts[${index}]`, raw: rawText(JSON.stringify(part)), reason: 'a part must be an object' });
          }
        });
        out.content = { ...content, parts: parts.map((part) => (isPart(part) ? part : {})) };
      }
    }
  } else if (content === null) delete out.content;
  const actions = (isPart(out.actions) ? out.actions : {}) as Event['actions'];
  const map = (name: 'stateDelta' | 'artifactDelta' | 'requestedAuthConfigs' | 'requestedToolConfirmations') => {
    const value = actions[name] as unknown;
    if (value === undefined || value === null) return {};
    if (isPart(value)) return value;
    notes.push({ column: `actions.${name}`, raw: rawText(JSON.stringify(value)), reason: 'must be an object' });
    return {};
  };
  out.actions = {
    ...actions,
    stateDelta: map('stateDelta') as Event['actions']['stateDelta'],
    artifactDelta: map('artifactDelta') as Event['actions']['artifactDelta'],
    requestedAuthConfigs: map('requestedAuthConfigs'),
    requestedToolConfirmations: map('requestedToolConfirmations'),
  };
  if (notes.length > 0) out.unreadable = notes;
  return out;
}

/** What an event row that cannot be decoded at all is shown as: its keys, its place, and the note. */
export function unreadableEvent(fields: { id: unknown; invocationId: unknown; timestamp: number | null }, note: UnreadableNote): Event {
  return {
    id: String(fields.id ?? ''),
    invocationId: typeof fields.invocationId === 'string' ? fields.invocationId : '',
    author: '',
    timestamp: fields.timestamp ?? 0,
    actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} },
    unreadable: [note],
  };
}
