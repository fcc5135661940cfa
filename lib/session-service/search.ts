// What the console's search asks a store, and what it answers: the header's
// search over every id, title, label and state value (find), and the search
// of an app's events (searchEvents). State filters with operators are in
// state-filter.ts.

/** Shortest text the text indexes look up (they index trigrams); shorter text matches app names only. */
export const MIN_FIND_LENGTH = 3;

/** Longest text a search takes: a search is typed, not pasted from a 1 MiB blob. */
export const MAX_FIND_LENGTH = 200;

export const DEFAULT_FIND_LIMIT = 20;
export const MAX_FIND_LIMIT = 100;

export interface FindRequest {
  /** A substring (case-insensitive) of a user id, a session id, a title, a label or a state value. */
  text: string;
  /** Only this app. */
  appName?: string;
  /** At most this many hits (DEFAULT_FIND_LIMIT). */
  limit?: number;
}

/**
 * One thing found: a user (by id or a user: value), a session (by id,
 * title, label, a session value), or an app (an app: value).
 */
export interface FindHit {
  kind: 'app' | 'user' | 'session';
  appName: string;
  userId?: string;
  sessionId?: string;
  /** What matched: `id`, `user id`, `title or labels`, `note`, or the state key with its prefix (`user:name`). */
  matched: string;
  /** The matching text with a little around it. */
  snippet: string;
}

/** How much of a store a bounded search looked through. */
export interface SearchCoverage {
  searched: number;
  total: number;
  /** What was counted: `sessions` or `events`. */
  unit: string;
  /** Percent of the store its search index holds, while that index is being built (the rest was scanned). */
  indexBuilt?: number;
}

export interface FindResult {
  hits: FindHit[];
  /** Present when the search stopped before the end (a time budget): "searched N of M". */
  coverage?: SearchCoverage;
}

/** What a text search of events looks through: the author, the content parts' text, tool call and response names, the error code and message. */
export function eventSearchText(event: {
  author?: string;
  content?: { parts?: unknown[] } | null;
  errorCode?: string | null;
  errorMessage?: string | null;
}): string {
  const texts: string[] = [event.author ?? ''];
  for (const part of event.content?.parts ?? []) {
    if (typeof part !== 'object' || part === null) continue;
    const { text, functionCall, functionResponse } = part as {
      text?: unknown;
      functionCall?: { name?: unknown };
      functionResponse?: { name?: unknown };
    };
    for (const value of [text, functionCall?.name, functionResponse?.name]) if (typeof value === 'string') texts.push(value);
  }
  if (event.errorCode) texts.push(event.errorCode);
  if (event.errorMessage) texts.push(event.errorMessage);
  return texts.join(' ');
}

/** The names of the tools an event calls or answers. */
export function eventToolNames(event: { content?: { parts?: unknown[] } | null }): string[] {
  const names: string[] = [];
  for (const part of event.content?.parts ?? []) {
    if (typeof part !== 'object' || part === null) continue;
    const { functionCall, functionResponse } = part as { functionCall?: { name?: unknown }; functionResponse?: { name?: unknown } };
    for (const name of [functionCall?.name, functionResponse?.name]) if (typeof name === 'string') names.push(name);
  }
  return names;
}

/** Up to `radius` characters either side of the first match of `needle` in `text`, on one line. */
export function snippetOf(text: string, needle: string, radius = 40): string {
  const at = text.toLowerCase().indexOf(needle.toLowerCase());
  const start = Math.max(0, at < 0 ? 0 : at - radius);
  const end = Math.min(text.length, (at < 0 ? 0 : at + needle.length) + radius);
  const cut = text.slice(start, end).replace(/\s+/g, ' ');
  return `${start > 0 ? '…' : ''}${cut}${end < text.length ? '…' : ''}`;
}

/** The hit's identity: one hit per user or session, whatever matched in it. */
export function hitKey(hit: Pick<FindHit, 'kind' | 'appName' | 'userId' | 'sessionId'>): string {
  return JSON.stringify([hit.kind, hit.appName, hit.userId ?? '', hit.sessionId ?? '']);
}

/** One hit per user or session (the first thing found in it), at most `limit`. */
export function distinctHits(hits: FindHit[], limit: number): FindHit[] {
  const seen = new Map<string, FindHit>();
  for (const hit of hits) {
    if (seen.size === limit) break;
    const key = hitKey(hit);
    if (!seen.has(key)) seen.set(key, hit);
  }
  return [...seen.values()];
}

/** An app-wide search of events by text: the events of every session of one app whose text contains it. */
export interface EventSearchRequest {
  appName: string;
  /** A substring (case-insensitive) of the events' content parts, tool call or response names, error code or message. */
  text: string;
  /** At most this many events (DEFAULT_FIND_LIMIT). */
  limit?: number;
}

/** One event found: where it is, and the text around the match. */
export interface EventHit {
  userId: string;
  sessionId: string;
  seq: number;
  author: string;
  /** Float seconds. */
  timestamp: number;
  snippet: string;
}

export interface EventSearchResult {
  hits: EventHit[];
  /** How the store looked: through a text index of every event, or by reading sessions' events within a time budget. */
  method: 'index' | 'scan';
  /** For a scan that stopped before the end: how many of the app's sessions it read. */
  coverage?: SearchCoverage;
  /** For a scan that answered while the store's search index is filled for the first time: percent of the sessions it holds. */
  indexBuilt?: number;
}

/** A store's event index that is not whole yet (its first fill runs): how far it is, in percent; the caller scans meanwhile. */
export interface EventIndexBuilding {
  indexBuilt: number;
}
