// event_data as adk-js 2.0.0 stores it: the camelCase event converted key by
// key to snake_case (sessions/db/schema.js, CamelCaseToSnakeCaseJsonType:
// `JSON.stringify(transformToSnakeCaseEvent(value))`), with the maps whose
// keys are data left alone (events/event.js, PRESERVE_KEYS_*), and the
// timestamp in milliseconds (`timestamp: params.timestamp || Date.now()`).
import { hasOwn, ownEntries, setOwn } from '../../../session-service/json';
import type { Event, JsonObject, JsonValue } from '../../../session-service/types';

/** events/event.js PRESERVE_KEYS_CAMEL_CASE: paths whose value is copied, not converted. */
const PRESERVE_CAMEL = [
  'actions.stateDelta',
  'actions.artifactDelta',
  'actions.requestedAuthConfigs',
  'actions.requestedToolConfirmations',
  'actions.customMetadata',
  'customMetadata',
  'content.parts.functionCall.args',
  'content.parts.functionResponse.response',
  'output',
  'route',
  'actions.agentState',
];
/** events/event.js PRESERVE_KEYS_SNAKE_CASE. */
const PRESERVE_SNAKE = [
  'actions.state_delta',
  'actions.artifact_delta',
  'actions.requested_auth_configs',
  'actions.requested_tool_confirmations',
  'actions.custom_metadata',
  'custom_metadata',
  'content.parts.function_call.args',
  'content.parts.function_response.response',
  'output',
  'route',
  'actions.agent_state',
];

// utils/object_notation_utils.js: toCamelCaseKey / toSnakeCaseKey.
const camelKey = (key: string) => key.replace(/_([a-z])/g, (_m, letter: string) => letter.toUpperCase());
const snakeKey = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** utils/object_notation_utils.js toNotation: paths are the source's keys joined by dots; arrays keep their parent's path. */
function convert(value: unknown, key: (k: string) => string, preserve: string[], path = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => convert(item, key, preserve, path));
  if (typeof value !== 'object' || value === null) return value;
  const result: Record<string, unknown> = {};
  for (const [name, inner] of ownEntries(value as Record<string, unknown>)) {
    const full = path === '' ? name : `${path}.${name}`;
    setOwn(result, key(name), preserve.includes(full) ? inner : convert(inner, key, preserve, full));
  }
  return result;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A stored adk-js event as Statehouse's Event: camelCase, float seconds, the actions' maps present. */
export function decodeAdkJsEvent(eventData: JsonObject, columns: { id: string; invocationId: string; timestampMs: number }): Event {
  const camel = convert(eventData, camelKey, PRESERVE_SNAKE) as Record<string, unknown>;
  const actions = isObject(camel.actions) ? camel.actions : {};
  const map = (name: string) => (isObject(actions[name]) ? (actions[name] as JsonObject) : {});
  const ms = typeof camel.timestamp === 'number' ? camel.timestamp : columns.timestampMs;
  return {
    ...camel,
    id: typeof camel.id === 'string' ? camel.id : columns.id,
    invocationId: typeof camel.invocationId === 'string' ? camel.invocationId : columns.invocationId,
    author: typeof camel.author === 'string' ? camel.author : '',
    timestamp: ms / 1000,
    actions: {
      ...actions,
      stateDelta: map('stateDelta'),
      artifactDelta: map('artifactDelta') as Record<string, number>,
      requestedAuthConfigs: map('requestedAuthConfigs'),
      requestedToolConfirmations: map('requestedToolConfirmations'),
    },
  };
}

/** Milliseconds, as adk-js keeps event timestamps (whole ms: what `new Date(ms)` stores in the column too). */
export function eventMillis(event: Event): number {
  return Math.round(event.timestamp * 1000);
}

/** The event_data adk-js would store for this event (createEvent's defaults included), as JSON text. */
export function encodeAdkJsEvent(event: Event): string {
  const adkEvent: Record<string, unknown> = { ...event, timestamp: eventMillis(event) };
  if (!hasOwn(adkEvent, 'longRunningToolIds')) adkEvent.longRunningToolIds = [];
  if (adkEvent.author === '') delete adkEvent.author; // createEvent leaves a missing author unset
  return JSON.stringify(convert(JSON.parse(JSON.stringify(adkEvent)) as JsonValue, snakeKey, PRESERVE_CAMEL));
}
