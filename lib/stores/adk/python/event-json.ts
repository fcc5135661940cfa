// adk-python keeps events as pydantic dumps with Python field names
// (snake_case: `invocation_id`, `actions.state_delta`, `function_call`),
// while Statehouse speaks the camelCase of ADK's API server. Only model
// fields are renamed; the keys of opaque maps (state deltas, function
// arguments, custom metadata) are data and stay as they are.
import { hasOwn, setOwn } from '../../../session-service/json';
import { EVENT_SHAPE, type Nested, type Shape } from '../../../session-service/adk-shapes';
import type { Event, JsonObject, JsonValue } from '../../../session-service/types';
import { mayBeSpelledApart, spellJson, type SpelledJson } from '../../../session-service/json-spelling';
import { spelledRecord, type ValueSpellings } from '../../../session-service/value-spelling';

const snakeToCamel = (name: string) => name.replace(/_([a-z0-9])/g, (_, char: string) => char.toUpperCase());
const camelToSnake = (name: string) => name.replace(/[A-Z]/g, (char) => `_${char.toLowerCase()}`);

function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);
}

function convert(value: JsonValue, shape: Shape, toCamel: boolean): JsonValue {
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) {
    const child = value[key] as JsonValue;
    const camel = toCamel ? snakeToCamel(key) : key;
    if (!hasOwn(shape, camel)) {
      setOwn(out, key, child);
      continue;
    }
    const nested: Nested = shape[camel] ?? null;
    const name = toCamel ? camel : camelToSnake(key);
    if (nested === null) setOwn(out, name, child);
    else if ('fields' in nested) setOwn(out, name, convert(child, nested.fields, toCamel));
    else setOwn(out, name, Array.isArray(child) ? child.map((item) => convert(item, nested.items, toCamel)) : child);
  }
  return out;
}

/** Drops null model fields, as `exclude_none=True` does (map values stay: they are data). */
function excludeNone(value: JsonValue, shape: Shape): JsonValue {
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) {
    const child = value[key] as JsonValue;
    if (child === null && hasOwn(shape, key)) continue;
    const nested: Nested = hasOwn(shape, key) ? (shape[key] ?? null) : null;
    if (nested === null) setOwn(out, key, child);
    else if ('fields' in nested) setOwn(out, key, excludeNone(child, nested.fields));
    else setOwn(out, key, Array.isArray(child) ? child.map((item) => excludeNone(item, nested.items)) : child);
  }
  return out;
}

/** A Python event dump to Statehouse's Event, with the maps ADK always has. */
export function eventFromPython(data: JsonValue): Event {
  const event = convert(data, EVENT_SHAPE, true) as unknown as Event;
  const actions = (isObject(event.actions as JsonValue) ? event.actions : {}) as Event['actions'];
  return {
    ...event,
    invocationId: event.invocationId ?? '',
    actions: {
      ...actions,
      stateDelta: actions.stateDelta ?? {},
      artifactDelta: actions.artifactDelta ?? {},
      requestedAuthConfigs: actions.requestedAuthConfigs ?? {},
      requestedToolConfirmations: actions.requestedToolConfirmations ?? {},
    },
  };
}

/** Statehouse's Event as `event.model_dump(exclude_none=True, mode="json")` gives it. */
export function eventToPython(event: Event): JsonObject {
  const cleaned = JSON.parse(JSON.stringify(event)) as JsonValue;
  return convert(excludeNone(cleaned, EVENT_SHAPE), EVENT_SHAPE, false) as JsonObject;
}

/** The JSON text of eventToPython's delta values, as the request spelled them (json-dumps.ts `written`). */
export function pythonEventWritten(deltaSpellings: ValueSpellings | undefined): SpelledJson | undefined {
  if (!deltaSpellings) return undefined;
  const actions: SpelledJson = { kind: 'object', entries: new Map([['state_delta', spelledRecord(deltaSpellings)]]) };
  return { kind: 'object', entries: new Map([['actions', actions]]) };
}

/** FamilyCodec.deltaSpelling of an event_data column (json.dumps or pydantic text; JSONB's text keeps `2.0` too). */
export function pythonDeltaSpelling(eventData: unknown): SpelledJson | null {
  if (typeof eventData !== 'string' || !mayBeSpelledApart(eventData)) return null;
  const event = spellJson(eventData);
  const actions = event?.kind === 'object' ? event.entries.get('actions') : undefined;
  const delta = actions?.kind === 'object' ? actions.entries.get('state_delta') : undefined;
  return delta?.kind === 'object' ? delta : null;
}
