import { MAX_JSON_DEPTH, MAX_KEY_LENGTH, MAX_KEYS_PER_DELTA, MAX_VALUE_BYTES } from './limits';
import type { JsonValue, StateRecord } from '../session-service/types';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** 1-based line and column of a character offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** JSON.parse with the error's position as line and column, which a person can find in an editor. */
export function parseJsonText(text: string): Parsed<JsonValue> {
  if (text.trim() === '') return { ok: false, message: 'Empty input: expected JSON.' };
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message)?.[1];
    const offset = position === undefined ? text.length : Number(position);
    const { line, column } = lineAndColumn(text, offset);
    const reason = message.replace(/ in JSON at position \d+.*$/s, '').replace(/^JSON\.parse: /, '');
    return { ok: false, message: `Malformed JSON at line ${line}, column ${column}: ${reason}` };
  }
}

export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function depthOf(value: JsonValue): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  let deepest = 0;
  for (const child of children) {
    deepest = Math.max(deepest, depthOf(child));
    if (deepest > MAX_JSON_DEPTH) break;
  }
  return deepest + 1;
}

const encoder = new TextEncoder();

/** Why a value cannot be stored, or null when it can. */
export function valueProblem(value: JsonValue): string | null {
  if (depthOf(value) > MAX_JSON_DEPTH) return `nested deeper than ${MAX_JSON_DEPTH} levels`;
  const bytes = encoder.encode(JSON.stringify(value)).length;
  if (bytes > MAX_VALUE_BYTES) return `${bytes} bytes of JSON, over the ${MAX_VALUE_BYTES}-byte limit`;
  return null;
}

/** Why a state key is not acceptable, or null. */
export function keyProblem(key: string): string | null {
  if (key.length === 0) return 'keys must not be empty';
  if (key.length > MAX_KEY_LENGTH) return `key "${key.slice(0, 40)}…" is longer than ${MAX_KEY_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) return `key ${JSON.stringify(key)} contains control characters`;
  return null;
}

/** Checks that a parsed value is a state object with acceptable keys and values. */
export function checkState(value: JsonValue): Parsed<StateRecord> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: `expected a JSON object, got ${describeJsonType(value)}` };
  }
  const keys = Object.keys(value);
  if (keys.length > MAX_KEYS_PER_DELTA) {
    return { ok: false, message: `${keys.length} keys, over the limit of ${MAX_KEYS_PER_DELTA}` };
  }
  for (const key of keys) {
    const problem = keyProblem(key) ?? valueProblem(value[key] as JsonValue);
    if (problem) return { ok: false, message: keyProblem(key) ? problem : `value of "${key}": ${problem}` };
  }
  return { ok: true, value };
}

/** Parses text typed into a state editor: JSON, an object, acceptable keys and values. */
export function parseStateText(text: string): Parsed<StateRecord> {
  const parsed = parseJsonText(text);
  return parsed.ok ? checkState(parsed.value) : parsed;
}
