import { z } from 'zod';
import type { JsonObject, JsonValue, StateRecord } from '../session-service/types';
import { checkState, describeJsonType } from './json-text';

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A JSON object passed through by reference. z.record/z.object would rebuild
 * it by assignment, which turns a `__proto__` key into a prototype change
 * and loses it; state keys must round-trip exactly.
 */
export const jsonObjectSchema = z.unknown().transform((value, ctx): JsonObject => {
  if (isJsonObject(value)) return value;
  ctx.addIssue({ code: 'custom', message: value === undefined ? 'is required' : `expected a JSON object, got ${describeJsonType(value)}` });
  return z.NEVER;
});

/** State or a state delta: an object whose keys and values pass lib/validation's checks (size, depth, key shape). */
export const stateSchema = z.unknown().transform((value, ctx): StateRecord => {
  if (value === undefined) {
    ctx.addIssue({ code: 'custom', message: 'is required' });
    return z.NEVER;
  }
  const checked = checkState(value as JsonValue);
  if (checked.ok) return checked.value;
  ctx.addIssue({ code: 'custom', message: checked.message });
  return z.NEVER;
});
