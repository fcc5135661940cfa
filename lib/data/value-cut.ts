// Large values on the session page: sent as a preview that says where the
// whole value is, so a page's size is bounded whatever the session holds. A
// cut value is a string (so every view type stays as it is): a private-use
// mark, a small JSON header with the length and the address of the whole
// value, the mark again, then the beginning of the value's text. Pure: the
// server cuts, the browser reads the header (components/json).
import type { JsonValue } from '../session-service/types';

const MARK = '\uE000';
/** A string longer than this is cut. */
export const CUT_STRING_CHARS = 8 * 1024;
/** A container whose JSON (its strings already cut) is longer than this is cut as a whole. */
export const CUT_CONTAINER_CHARS = 32 * 1024;
/** What is kept of a cut value. */
export const PREVIEW_CHARS = 1024;

export interface CutValue {
  /** Characters of the whole string, or of the whole value's JSON text. */
  length: number;
  /** Where the whole value is: a path under /api answering `{"value": ...}`. */
  source: string;
  /** The preview is JSON text of an object or array, not the beginning of a string. */
  json: boolean;
  preview: string;
}

interface Header {
  n: number;
  src: string;
  json?: 1;
}

function cut(text: string, source: string, json: boolean): string {
  const header: Header = json ? { n: text.length, src: source, json: 1 } : { n: text.length, src: source };
  return `${MARK}${JSON.stringify(header)}${MARK}${text.slice(0, PREVIEW_CHARS)}`;
}

/** The cut value a string stands for, or null for an ordinary string. */
export function parseCut(text: string): CutValue | null {
  if (!text.startsWith(MARK)) return null;
  const end = text.indexOf(MARK, 1);
  if (end === -1) return null;
  try {
    const header = JSON.parse(text.slice(1, end)) as Partial<Header>;
    if (typeof header.n !== 'number' || typeof header.src !== 'string' || !header.src.startsWith('/api/')) return null;
    return { length: header.n, source: header.src, json: header.json === 1, preview: text.slice(end + 1) };
  } catch {
    return null;
  }
}

/** RFC 6901: the path of a value inside another. */
function pointerTo(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/**
 * `value` with every long string, and every container still too long once
 * its strings are cut, replaced by a cut value whose source is
 * `source(pointer)` (the pointer of that part inside `value`).
 */
export function cutValue(value: JsonValue, source: (pointer: string) => string, pointer = ''): JsonValue {
  if (typeof value === 'string') return value.length > CUT_STRING_CHARS ? cut(value, source(pointer), false) : value;
  if (value === null || typeof value !== 'object') return value;
  const cutChildren: JsonValue = Array.isArray(value)
    ? value.map((item, index) => cutValue(item, source, pointerTo(pointer, index)))
    : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutValue(item, source, pointerTo(pointer, key))]));
  const text = JSON.stringify(cutChildren);
  return text.length > CUT_CONTAINER_CHARS ? cut(JSON.stringify(value), source(pointer), true) : cutChildren;
}

/** The part of `value` at an RFC 6901 pointer; undefined when there is none. */
export function valueAt(value: JsonValue | undefined, pointer: string): JsonValue | undefined {
  if (pointer === '') return value;
  let current = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) current = /^\d+$/.test(key) ? current[Number(key)] : undefined;
    else current = Object.hasOwn(current, key) ? current[key] : undefined;
  }
  return current;
}
