/**
 * snake_case → camelCase for ADK's known field names only. ADK's pydantic
 * models accept both spellings (alias_generator=to_camel,
 * populate_by_name=True); Statehouse stores camelCase. Keys inside opaque
 * maps (state, stateDelta, function args and responses, customMetadata, ...)
 * are data, never renamed; unknown fields are kept exactly as sent.
 */
import { hasOwn, setOwn } from '../session-service/json';
import type { JsonObject, JsonValue } from '../session-service/types';
import { invalidInput } from '../session-service/errors';
import { EVENT_SHAPE, fields, items, type Nested, type Shape } from '../session-service/adk-shapes';

export { EVENT_SHAPE, type Shape };

/** POST /apps/{app}/users/{user}/sessions (ADK's CreateSessionRequest). */
export const CREATE_SESSION_SHAPE: Shape = { sessionId: null, state: null, events: items(EVENT_SHAPE) };
/** PATCH /apps/{app}/users/{user}/sessions/{id} (ADK's UpdateSessionRequest). */
export const UPDATE_SESSION_SHAPE: Shape = { stateDelta: null };
/** POST /render: the session reference uses ADK's names. */
export const RENDER_SHAPE: Shape = {
  template: null,
  dialect: null,
  state: null,
  session: fields({ appName: null, userId: null, sessionId: null, asOf: null }),
};

const snakeToCamel = (name: string) => name.replace(/_([a-z0-9])/g, (_, char: string) => char.toUpperCase());

function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function knownName(key: string, shape: Shape): string | null {
  if (hasOwn(shape, key)) return key;
  if (!key.includes('_')) return null;
  const camel = snakeToCamel(key);
  return hasOwn(shape, camel) ? camel : null;
}

function convertNested(value: JsonValue, nested: Nested, path: string): JsonValue {
  if (nested === null) return value;
  if ('fields' in nested) return convertAdkFields(value, nested.fields, path);
  if (!Array.isArray(value)) return value;
  return value.map((item, index) => convertAdkFields(item, nested.items, `${path}.${index}`));
}

/**
 * A copy of `value` with known snake_case names in camelCase, at every level
 * the shape describes. Anything that is not an object is returned as is (the
 * schema reports it). Both spellings of one field is INVALID_INPUT.
 */
export function convertAdkFields(value: JsonValue, shape: Shape, path = ''): JsonValue {
  if (!isObject(value)) return value;
  const result: JsonObject = {};
  const sentAs = new Map<string, string>();
  for (const key of Object.keys(value)) {
    const child = value[key] as JsonValue;
    const camel = knownName(key, shape);
    if (camel === null) {
      setOwn(result, key, child);
      continue;
    }
    const earlier = sentAs.get(camel);
    const at = path ? `${path}.${camel}` : camel;
    if (earlier !== undefined) throw invalidInput(`${at}: given twice, as ${earlier} and ${key}`);
    sentAs.set(camel, key);
    setOwn(result, camel, convertNested(child, shape[camel] ?? null, at));
  }
  return result;
}
