// The limits by which a page shows a large value in part, and the form in
// which a store hands over a value it has already cut while reading it (so
// that a page read never ships or parses a large value whole). Such a
// "precut" value is a string: a private-use mark, a small JSON header with the
// whole value's length, the mark again, then the beginning of the value's
// text. lib/data/value-cut.ts turns it into a cut value by naming where the
// whole value is; only the page's reads ask a store for previews, so API
// clients never see one.

export const CUT_MARK = '\uE000';
/** A string longer than this is cut. */
export const CUT_STRING_CHARS = 8 * 1024;
/** A container whose JSON (its strings already cut) is longer than this is cut as a whole. */
export const CUT_CONTAINER_CHARS = 32 * 1024;
/**
 * A container whose JSON is longer than CUT_CONTAINER_CHARS and that has more
 * members than this is cut as a whole without looking into its members: what
 * a store reads of one value stays bounded by members × CUT_CONTAINER_CHARS.
 */
export const CUT_MEMBERS = 64;
/** What is kept of a cut value. */
export const PREVIEW_CHARS = 1024;

/** Reads that may hand over large values as previews (precut strings). */
export interface ValueReadOptions {
  preview?: boolean;
}

export interface Precut {
  /** Characters of the whole string, or of the whole value's JSON text. */
  length: number;
  /** Characters of the whole value's JSON text (a string's with its quotes and escapes). */
  textLength: number;
  /** The preview is JSON text of an object or array, not the beginning of a string. */
  json: boolean;
  preview: string;
}

interface PrecutHeader {
  n: number;
  q: number;
  pre: 1;
  json?: 1;
}

export function precut(length: number, textLength: number, preview: string, json: boolean): string {
  const header: PrecutHeader = json ? { n: length, q: textLength, pre: 1, json: 1 } : { n: length, q: textLength, pre: 1 };
  return markedString(header, preview);
}

/** The precut value a string stands for, or null for any other string. */
export function parsePrecut(text: string): Precut | null {
  const marked = readMarked<PrecutHeader>(text);
  if (!marked) return null;
  const { header, preview } = marked;
  if (typeof header.n !== 'number' || typeof header.q !== 'number' || header.pre !== 1) return null;
  return { length: header.n, textLength: header.q, json: header.json === 1, preview };
}

/** The form of precut and cut values (lib/data/value-cut.ts): the mark, the header's JSON, the mark again, the preview's beginning. */
export function markedString(header: object, preview: string): string {
  return `${CUT_MARK}${JSON.stringify(header)}${CUT_MARK}${preview.slice(0, PREVIEW_CHARS)}`;
}

/** A marked string's header (its fields still to check) and preview; null for any other string. */
export function readMarked<Header>(text: string): { header: Partial<Header>; preview: string } | null {
  if (!text.startsWith(CUT_MARK)) return null;
  const end = text.indexOf(CUT_MARK, 1);
  if (end === -1) return null;
  let header: unknown;
  try {
    header = JSON.parse(text.slice(1, end));
  } catch {
    return null;
  }
  return typeof header === 'object' && header !== null ? { header, preview: text.slice(end + 1) } : null;
}
