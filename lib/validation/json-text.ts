import { exceedsDepth, loneSurrogateProblem } from './json-checks';
import { parseJsonOrExplain } from './json-syntax';
import { lossyNumberMessage } from './json-numbers';
import { hasLoneSurrogate } from './text';
import { formatBytes, MAX_JSON_DEPTH, MAX_KEY_LENGTH, MAX_KEYS_PER_DELTA, MAX_VALUE_BYTES } from './limits';
import type { JsonObject, JsonValue, StateRecord } from '../session-service/types';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * JSON.parse with the error's line and column, which a person can find in an
 * editor; numbers it would round and strings that are not valid Unicode are
 * refused too. The position comes from our own scanner, not from the engine's
 * message: V8 gives no position for some errors, and other browsers word
 * theirs differently, while the form validates live in the browser and again
 * on the server and must say the same thing in both.
 */
export function parseJsonText(text: string): Parsed<JsonValue> {
  if (text.trim() === '') return { ok: false, message: 'Empty input: expected JSON.' };
  const parsed = parseJsonOrExplain(text);
  if (!parsed.ok) return parsed;
  const value = parsed.value as JsonValue;
  // What JSON.parse would silently change must not be stored as if it were what was typed (the API refuses the same).
  const lossy = lossyNumberMessage(text);
  if (lossy) return { ok: false, message: `The ${lossy}.` };
  if (exceedsDepth(value, MAX_JSON_DEPTH)) return { ok: true, value };
  const unicode = loneSurrogateProblem(value);
  if (unicode) return { ok: false, message: unicode.replace(/^body/, 'value') };
  return { ok: true, value };
}

export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const encoder = new TextEncoder();

/** Why a value cannot be stored, or null when it can. */
export function valueProblem(value: JsonValue): string | null {
  if (exceedsDepth(value, MAX_JSON_DEPTH)) return `nested deeper than ${MAX_JSON_DEPTH} levels`;
  const bytes = encoder.encode(JSON.stringify(value)).length;
  if (bytes > MAX_VALUE_BYTES)
    return `${formatBytes(bytes)} of JSON (${bytes.toLocaleString('en')} bytes), over the ${formatBytes(MAX_VALUE_BYTES)} limit`;
  return null;
}

/** Why a state key is not acceptable, or null. */
export function keyProblem(key: string): string | null {
  if (key.length === 0) return 'keys must not be empty';
  if (key.length > MAX_KEY_LENGTH) return `key "${key.slice(0, 40)}…" is longer than ${MAX_KEY_LENGTH} characters`;
  if (/[\u0000-\u001f\u007f]/.test(key)) return `key ${JSON.stringify(key)} contains control characters`;
  // Keys are stored in their own column, where the drivers would turn an unpaired surrogate into U+FFFD.
  if (hasLoneSurrogate(key)) return `key ${JSON.stringify(key)} is not valid Unicode (it contains an unpaired surrogate)`;
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

/** Parses text that must hold a JSON object (function call args, a function response). Blank means `{}`. */
export function parseObjectText(text: string): Parsed<JsonObject> {
  if (text.trim() === '') return { ok: true, value: {} };
  const parsed = parseJsonText(text);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: `expected a JSON object, got ${describeJsonType(value)}` };
  }
  if (exceedsDepth(value, MAX_JSON_DEPTH)) return { ok: false, message: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  return { ok: true, value };
}

/**
 * Why a prefixed delta key is not acceptable from the dashboard, or null. On
 * top of keyProblem: a bare prefix (`user:`) would store an empty key in
 * that tier, which ADK allows but nobody means to do.
 */
export function deltaKeyProblem(prefixedKey: string): string | null {
  const problem = keyProblem(prefixedKey);
  if (problem) return problem;
  const bare = /^(app|user|temp):$/.exec(prefixedKey);
  return bare ? `key "${prefixedKey}" names no key in the ${bare[1]} tier: keys must not be empty` : null;
}

/**
 * Parses a stateDelta typed into the dashboard: parseStateText, and every key
 * must name a key within its tier. Blank means no change (`{}`).
 */
export function parseDeltaText(text: string): Parsed<StateRecord> {
  if (text.trim() === '') return { ok: true, value: {} };
  const parsed = parseStateText(text);
  if (!parsed.ok) return parsed;
  for (const key of Object.keys(parsed.value)) {
    const problem = deltaKeyProblem(key);
    if (problem) return { ok: false, message: problem };
  }
  return parsed;
}
