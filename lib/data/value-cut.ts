// Large values on the session page: sent as a preview that says where the
// whole value is, so a page's size is bounded whatever the session holds. A
// cut value is a string (so every view type stays as it is): a private-use
// mark, a small JSON header with the length and the address of the whole
// value, the mark again, then the beginning of the value's text. Pure: the
// server cuts, the browser reads the header (components/json).
import type { JsonValue } from '../session-service/types';
import {
  CUT_CONTAINER_CHARS,
  CUT_MEMBERS,
  CUT_STRING_CHARS,
  markedString,
  parsePrecut,
  readMarked,
  PREVIEW_CHARS,
} from '../session-service/value-preview';

export { CUT_CONTAINER_CHARS, CUT_MEMBERS, CUT_STRING_CHARS, PREVIEW_CHARS };

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

function cut(text: string, source: string, json: boolean, length = text.length): string {
  const header: Header = json ? { n: length, src: source, json: 1 } : { n: length, src: source };
  return markedString(header, text);
}

/** The cut value a string stands for, or null for an ordinary string. */
export function parseCut(text: string): CutValue | null {
  const marked = readMarked<Header>(text);
  if (!marked) return null;
  const { header, preview } = marked;
  if (typeof header.n !== 'number' || typeof header.src !== 'string' || !header.src.startsWith('/api/')) return null;
  return { length: header.n, source: header.src, json: header.json === 1, preview };
}

/** RFC 6901: the path of a value inside another. */
function pointerTo(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/**
 * `value` with every long string, every long container of many members, and
 * every container still too long once its strings are cut, replaced by a cut
 * value whose source is `source(pointer)` (the pointer of that part inside
 * `value`). A store's precut strings (a page read's previews) become cut
 * values of the same part.
 */
export function cutValue(value: JsonValue, source: (pointer: string) => string, pointer = ''): JsonValue {
  if (typeof value === 'string') {
    const pre = parsePrecut(value);
    if (pre) return cut(pre.preview, source(pointer), pre.json, pre.length);
    return value.length > CUT_STRING_CHARS ? cut(value, source(pointer), false) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const members = Array.isArray(value) ? value.length : Object.keys(value).length;
  if (members > CUT_MEMBERS) {
    const whole = wholeText(value);
    if (whole.length > CUT_CONTAINER_CHARS) return cut(whole.text, source(pointer), true, whole.length);
  }
  const cutChildren: JsonValue = Array.isArray(value)
    ? value.map((item, index) => cutValue(item, source, pointerTo(pointer, index)))
    : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutValue(item, source, pointerTo(pointer, key))]));
  if (JSON.stringify(cutChildren).length <= CUT_CONTAINER_CHARS) return cutChildren;
  const whole = wholeText(value);
  return cut(whole.text, source(pointer), true, whole.length);
}

/**
 * A value's JSON text as far as it is known, and the whole text's length:
 * a store's precut part stands in with its preview (which reaches past the
 * first PREVIEW_CHARS of any text it starts in) and counts its whole length.
 */
function wholeText(value: JsonValue): { text: string; length: number } {
  let extra = 0;
  const write = (part: JsonValue): string => {
    if (typeof part === 'string') {
      const pre = parsePrecut(part);
      if (!pre) return JSON.stringify(part);
      const text = pre.json ? pre.preview : JSON.stringify(pre.preview);
      extra += pre.textLength - text.length;
      return text;
    }
    if (part === null || typeof part !== 'object') return JSON.stringify(part);
    if (Array.isArray(part)) return `[${part.map(write).join(',')}]`;
    return `{${Object.entries(part)
      .map(([key, item]) => `${JSON.stringify(key)}:${write(item)}`)
      .join(',')}}`;
  };
  const text = write(value);
  return { text, length: text.length + extra };
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
