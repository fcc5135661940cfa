/**
 * State values stored as a request's JSON text spelled them. A body is parsed
 * with JSON.parse like any other (validation, merges and answers see plain
 * values); beside it travel the texts of the few values JSON.stringify would
 * spell otherwise (`2.0`, `1e2`, keys not in JS order), and the store writes
 * those texts instead, so a Python agent reading the row gets a float.
 *
 * Pure: no Node APIs.
 */
import { encodeJson } from './json';
import { distinctText, mayBeSpelledApart, spellJson, type SpelledJson } from './json-spelling';
import { scopeOfKey } from './scope';
import { jsonEqual } from './state-diff';
import type { Event, JsonValue } from './types';

/** Key (as the record being written names it) → the value's text as written; only values JSON.stringify spells otherwise. */
export type ValueSpellings = ReadonlyMap<string, string>;

/** The body's text as written, or null when nothing in it can be spelled apart (the common case: one regex test). */
export function spelledBody(text: string): SpelledJson | null {
  return mayBeSpelledApart(text) ? spellJson(text) : null;
}

/** The spellings of the object's values at the first of `paths` that holds one; undefined when none differs. */
export function spellingsAt(body: SpelledJson | null | undefined, ...paths: string[][]): ValueSpellings | undefined {
  for (const path of paths) {
    let node: SpelledJson | undefined = body ?? undefined;
    for (const name of path) node = node?.kind === 'object' ? node.entries.get(name) : undefined;
    if (node?.kind !== 'object') continue;
    const spellings = new Map<string, string>();
    for (const [key, value] of node.entries) {
      const text = distinctText(value);
      if (text !== undefined) spellings.set(key, text);
    }
    return spellings.size > 0 ? spellings : undefined;
  }
  return undefined;
}

/** Where an event's delta is, in ADK's camelCase and snake_case. */
export const EVENT_DELTA_PATHS = [
  ['actions', 'stateDelta'],
  ['actions', 'state_delta'],
];

/** The delta spellings of each event of the array at `path`, by index; undefined when no event has any. */
export function eventSpellingsAt(body: SpelledJson | null | undefined, path: string[]): (ValueSpellings | undefined)[] | undefined {
  let node: SpelledJson | undefined = body ?? undefined;
  for (const name of path) node = node?.kind === 'object' ? node.entries.get(name) : undefined;
  if (node?.kind !== 'array') return undefined;
  const spellings = node.items.map((event) => spellingsAt(event, ...EVENT_DELTA_PATHS));
  return spellings.some((event) => event !== undefined) ? spellings : undefined;
}

/** The spellings as one JSON object's text (keys as named, in the spellings' order). */
export function spelledRecord(spellings: ValueSpellings): Extract<SpelledJson, { kind: 'object' }> {
  const entries = new Map<string, SpelledJson>();
  for (const [key, text] of spellings) {
    const spelled = spellJson(text);
    if (spelled) entries.set(key, spelled);
  }
  return { kind: 'object', entries };
}

/** Spellings of a JSON object's text itself (a delta typed on the page). */
export function spellingsOfText(text: string): ValueSpellings | undefined {
  return spellingsAt(spelledBody(text), []);
}

/** One value's spelling (a value typed on the page), keyed as it will be written. */
export function spellingOfValue(key: string, text: string): ValueSpellings | undefined {
  const spelled = spelledBody(text);
  const written = spelled ? distinctText(spelled) : undefined;
  return written === undefined ? undefined : new Map([[key, written]]);
}

/** Spellings of several keys at once (undefined when there are none). */
export function mergeSpellings(...parts: (ValueSpellings | undefined)[]): ValueSpellings | undefined {
  const merged = new Map<string, string>();
  for (const part of parts) for (const [key, text] of part ?? []) merged.set(key, text);
  return merged.size > 0 ? merged : undefined;
}

/** A delta's spellings by tier, keys without their prefix. */
export type TierSpellings = Partial<Record<'app' | 'user' | 'session', ValueSpellings>>;

/** Splits spellings by tier as splitDelta splits the delta. */
export function splitSpellings(spellings: ValueSpellings | undefined): TierSpellings {
  const split: Partial<Record<'app' | 'user' | 'session', Map<string, string>>> = {};
  for (const [prefixed, text] of spellings ?? []) {
    const { scope, key } = scopeOfKey(prefixed);
    if (scope !== 'temp') (split[scope] ??= new Map()).set(key, text);
  }
  return split;
}

/**
 * `value` as JSON text: as written when the written text is this very value
 * (anything that changed it in between, a merge or a clean-up, gets
 * JSON.stringify's spelling), JSON.stringify's otherwise.
 */
export function encodeSpelled(value: JsonValue, written: string | undefined): string {
  if (written === undefined) return encodeJson(value);
  return jsonEqual(JSON.parse(written) as JsonValue, value) ? written : encodeJson(value);
}

const DELTA_MARK = '\u0000statehouse:spelled-delta\u0000';

/** The event's JSON text with its delta's values spelled as written (JSON.stringify's text when there is nothing to spell). */
export function encodeEvent(event: Event, spellings: ValueSpellings | undefined): string {
  const delta = event.actions.stateDelta;
  if (!spellings || !Object.keys(delta).some((key) => spellings.has(key))) return JSON.stringify(event);
  const text = JSON.stringify({ ...event, actions: { ...event.actions, stateDelta: DELTA_MARK } });
  const mark = JSON.stringify(DELTA_MARK);
  const at = text.indexOf(mark);
  // The mark once and only once, or the event carries the mark's text itself: no spelling then.
  if (at < 0 || text.indexOf(mark, at + 1) >= 0) return JSON.stringify(event);
  const parts: string[] = [];
  for (const key of Object.keys(delta)) {
    const value = delta[key];
    if (value !== undefined) parts.push(`${JSON.stringify(key)}:${encodeSpelled(value, spellings.get(key))}`);
  }
  return `${text.slice(0, at)}{${parts.join(',')}}${text.slice(at + mark.length)}`;
}
