import type { JsonValue } from '../session-service/types';

/**
 * A state value typed into a search (API `?stateValue=`, the dashboard's
 * value box): JSON text means that JSON value, anything else that string,
 * so `pro` finds "pro", `true` finds true and `"42"` finds the string "42".
 */
export function searchValueOf(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
