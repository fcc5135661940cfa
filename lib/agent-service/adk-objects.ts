// adk-js's objects on both of Statehouse's adk-js session services (the drop-in
// over a database, HttpSessionService over the API): Statehouse's events and
// sessions as adk-js's, paging as adk-js answers it, the caller's session object
// updated in place after an append, and adk-js's own services' error wording.
import {
  createEvent,
  type CreateEventParams,
  type Event as AdkEvent,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type Session as AdkSession,
} from '@google/adk';
import {
  KEY_PREFIX_TEMP,
  SessionServiceError,
  invalidInput,
  isSessionServiceError,
  sessionNotFound,
  staleSession,
  type ErrorCode,
  type JsonValue,
  type NewEvent,
  type StateRecord,
} from '../session-service';
import { idSchema } from '../validation/schemas';

/** A session as Statehouse serves it: float seconds; events as stored (camelCase, no author stored as ''). */
export interface StoredSessionShape {
  id: string;
  appName: string;
  userId: string;
  state: StateRecord;
  events: readonly StoredEventShape[];
  lastUpdateTime: number;
}

export interface StoredEventShape {
  id: string;
  author: string;
  timestamp: number;
  [field: string]: unknown;
}

/** Float seconds (storage) to milliseconds (adk-js), keeping microseconds and undoing the division's rounding. */
export function toMillis(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e3;
}

export function toAdkSession(session: StoredSessionShape): AdkSession {
  return {
    id: session.id,
    appName: session.appName,
    userId: session.userId,
    state: session.state,
    events: session.events.map(toAdkEvent),
    lastUpdateTime: toMillis(session.lastUpdateTime),
  };
}

export function toAdkEvent(event: StoredEventShape): AdkEvent {
  // Stored events are adk-js/ADK events serialised as JSON (camelCase), so the
  // shapes agree field by field; only the timestamp's unit differs. No author
  // is stored as ''; adk-js's createEvent leaves it unset. createEvent adds
  // adk-js's brand and fills its defaults.
  const { author, ...fields } = event;
  const params = { ...fields, ...(author === '' ? {} : { author }), timestamp: toMillis(event.timestamp) } as unknown as CreateEventParams;
  return createEvent(params);
}

/** The event as Statehouse takes it: a JSON copy, timestamp in seconds (absent when adk-js left it 0). */
export function toStoredEvent(event: AdkEvent): NewEvent {
  const copy = jsonCopy(event, 'The event');
  if (!isRecord(copy)) throw invalidInput('The event must be an object.');
  const timestamp = Number.isFinite(event.timestamp) && event.timestamp > 0 ? event.timestamp / 1000 : undefined;
  return { ...copy, timestamp };
}

function isRecord(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What storage will hold for a value adk-js types as `unknown`: its JSON form. */
function jsonCopy(value: unknown, what: string): JsonValue {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw invalidInput(`${what} cannot be stored as JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (text === undefined) throw invalidInput(`${what} cannot be stored as JSON.`);
  return JSON.parse(text) as JsonValue;
}

export function jsonRecord(value: Record<string, unknown>, what: string): StateRecord {
  const copy = jsonCopy(value, what);
  if (!isRecord(copy)) throw invalidInput(`${what} must be an object.`);
  return copy;
}

/** The ids the HTTP API accepts (lib/validation), so every session an agent creates can be opened in the console. */
export function checkId(name: string, id: string): void {
  const result = idSchema.safeParse(id);
  if (!result.success) throw invalidInput(`${name} ${JSON.stringify(id)} ${result.error.issues[0]?.message ?? 'is not valid'}.`);
}

function nonNegativeInteger(value: number | undefined, name: string, min = 0): void {
  if (value !== undefined && (!Number.isInteger(value) || value < min)) {
    throw invalidInput(`${name} must be an integer of at least ${min}.`);
  }
}

/** adk-js's paging options, checked; `start` is where the page begins (page wins over offset, as in adk-js). */
export function pageRequest({ limit, offset, page, order }: ListSessionsRequest): {
  limit: number | undefined;
  start: number;
  order: 'asc' | 'desc' | undefined;
} {
  nonNegativeInteger(limit, 'limit');
  nonNegativeInteger(offset, 'offset');
  nonNegativeInteger(page, 'page', 1);
  if (order !== undefined && order !== 'asc' && order !== 'desc') throw invalidInput('order must be "asc" or "desc".');
  const start = limit !== undefined && page !== undefined ? (page - 1) * limit : (offset ?? 0);
  return { limit, start, order };
}

/** adk-js's page metadata for a page that began at `start`, of `total` sessions. */
export function pageResponse(request: ListSessionsRequest, start: number, sessions: AdkSession[], total: number): ListSessionsResponse {
  const { limit, page } = request;
  if (limit === undefined) return { sessions, page: 1, limit: total, totalItems: total, totalPages: total === 0 ? 0 : 1 };
  return {
    sessions,
    page: page ?? (limit === 0 ? 1 : Math.floor(start / limit) + 1),
    limit,
    totalItems: total,
    totalPages: limit === 0 ? 0 : Math.ceil(total / limit),
  };
}

/**
 * The revision to append at for a session object the service did not load
 * (built by hand, or a copy): the stored one, unless storage changed after
 * the object's lastUpdateTime, as adk-python's SqliteSessionService decides.
 */
export function revisionByClock(session: AdkSession, stored: { revision: number; lastUpdateTime: number } | undefined): number {
  if (!stored) throw sessionNotFound(session.id);
  if (stored.lastUpdateTime > session.lastUpdateTime) throw staleSession();
  return stored.revision;
}

/** adk-js DatabaseSessionService's words (core/src/sessions/database_session_service.ts). */
export const adkJsMessages = {
  alreadyExists: (sessionId: string) => `Session with id ${sessionId} already exists.`,
  notFoundForAppend: (sessionId: string) => `Session ${sessionId} not found for appendEvent`,
};

/** A domain error rethrown with adk-js's own services' message for its code (code kept), for callers that match on it. */
export function inAdkJsWords(messages: Partial<Record<ErrorCode, () => string>>): (error: unknown) => never {
  return (error: unknown) => {
    const message = isSessionServiceError(error) ? messages[error.code] : undefined;
    throw message ? new SessionServiceError((error as SessionServiceError).code, message()) : error;
  };
}

/**
 * After the event is stored, the caller's session object as adk-js expects
 * it: adk-js's base appendEvent (given here as `baseAppend`) trims temp: keys
 * from the event in place, applies the rest (honouring its write-order stamps)
 * and the event goes into the list; temp: keys then go to state, as in Python;
 * lastUpdateTime becomes the event's timestamp.
 */
export async function applyToSessionObject(
  session: AdkSession,
  event: AdkEvent,
  stored: { id: string; timestamp: number },
  baseAppend: (request: { session: AdkSession; event: AdkEvent }) => Promise<AdkEvent>,
): Promise<void> {
  event.id ||= stored.id;
  if (!event.timestamp) event.timestamp = toMillis(stored.timestamp);
  const temp = tempEntries(event);
  // The base class is given the session with an empty event list: it would
  // look the id up in the whole list, a cost growing with the session (10 ms
  // an append at 10,000 events); upsertEvent does that lookup in constant time.
  await baseAppend({ session: { ...session, events: [] }, event });
  upsertEvent(session.events, event);
  for (const [key, value] of temp) {
    Object.defineProperty(session.state, key, { value, enumerable: true, writable: true, configurable: true });
  }
  session.lastUpdateTime = event.timestamp;
}

function tempEntries(event: AdkEvent): [string, unknown][] {
  const delta: Record<string, unknown> = event.actions?.stateDelta ?? {};
  return Object.keys(delta)
    .filter((key) => key.startsWith(KEY_PREFIX_TEMP))
    .map((key) => [key, delta[key]]);
}

/**
 * Each event list's ids and positions, as this module last left the list.
 * A list whose length or last event changed since (the caller pushed or
 * removed events) is indexed again; an id found is checked against the list
 * before it is trusted. (An event the caller swapped in place in the middle
 * of the list, keeping its length and last event, goes unnoticed.)
 */
const eventIndexes = new WeakMap<AdkEvent[], { length: number; last: AdkEvent | undefined; ids: Map<string, number> }>();

/** adk-js's appendEvent on the list: the entry with the event's id replaced in place, else the event pushed. */
function upsertEvent(events: AdkEvent[], event: AdkEvent): void {
  let index = eventIndexes.get(events);
  if (index?.length !== events.length || index.last !== events.at(-1)) {
    index = { length: events.length, last: events.at(-1), ids: new Map(events.map((e, i) => [e.id, i])) };
    eventIndexes.set(events, index);
  }
  const at = index.ids.get(event.id) ?? -1;
  const found = at < 0 || events[at]?.id === event.id ? at : events.findIndex((e) => e.id === event.id);
  if (found >= 0) {
    events[found] = event;
    index.ids.set(event.id, found);
  } else {
    index.ids.set(event.id, events.length);
    events.push(event);
  }
  index.length = events.length;
  index.last = events.at(-1);
}
