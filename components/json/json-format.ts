import type { JsonValue } from '@/lib/session-service/types';

/** Strings longer than this are folded until asked for. */
export const FOLD_STRING_CHARS = 160;
/** Strings with more lines than this are folded too. */
export const FOLD_STRING_LINES = 4;
/** Children of an object or array shown before a "show more" button. */
export const CHILDREN_PAGE = 100;

export type JsonContainer = JsonValue[] | { [key: string]: JsonValue };

export function isContainer(value: JsonValue): value is JsonContainer {
  return value !== null && typeof value === 'object';
}

/** `{3 keys}`, `[1 item]`: what a collapsed object or array holds. */
export function containerSummary(value: JsonContainer): string {
  if (Array.isArray(value)) return `[${value.length.toLocaleString('en')} ${value.length === 1 ? 'item' : 'items'}]`;
  const size = Object.keys(value).length;
  return `{${size.toLocaleString('en')} ${size === 1 ? 'key' : 'keys'}}`;
}

/** The child entries of a container, own keys only (`__proto__` is an ordinary key here). */
export function childEntries(value: JsonContainer): [string, JsonValue][] {
  if (Array.isArray(value)) return value.map((item, index) => [String(index), item]);
  return Object.keys(value).map((key) => [key, value[key] as JsonValue]);
}

export function isFoldedString(text: string): boolean {
  if (text.length > FOLD_STRING_CHARS) return true;
  let lines = 1;
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10 && ++lines > FOLD_STRING_LINES) return true;
  return false;
}

/** The beginning of a folded string: its first lines, at most FOLD_STRING_CHARS characters. */
export function foldedPreview(text: string): string {
  const lines = text.split('\n', FOLD_STRING_LINES).join('\n');
  return lines.length > FOLD_STRING_CHARS ? lines.slice(0, FOLD_STRING_CHARS) : lines;
}

/** The text a copy button puts on the clipboard: strings as they are, everything else as indented JSON. */
export function copyTextOf(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** A child's path for accessible names: `plan.items[2]`. */
export function childPath(parent: string, key: string, inArray: boolean): string {
  if (inArray) return `${parent}[${key}]`;
  return /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}
