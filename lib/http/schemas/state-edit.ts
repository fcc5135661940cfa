import { z } from 'zod';
import { ownEntries, setOwn } from '../../session-service/json';
import type { ExpectedValue } from '../../session-service/store';
import type { JsonValue } from '../../session-service/types';
import { keyProblem, valueProblem } from '../../validation/json-text';
import { MAX_KEYS_PER_DELTA } from '../../validation/limits';
import { nameSchema, reasonSchema } from '../../validation/schemas';
import { parseWith } from '../../validation/issues';
import { badRequest } from '../problem';
import { jsonObjectSchema } from '../../validation/json-schemas';

/** Who made the edit, recorded in the history. Callers of the API name themselves; the default says where it came from. */
const actorSchema = z.string({ error: 'must be a string' }).trim().pipe(nameSchema);

const stateEditSchema = z.object({
  set: jsonObjectSchema.optional(),
  remove: z.array(z.string()).max(MAX_KEYS_PER_DELTA).optional(),
  reason: reasonSchema,
  actor: actorSchema.default('api'),
  /** Compare-and-set: what some keys must hold for the edit to be made (else 409, nothing written). */
  expect: jsonObjectSchema.optional(),
  /** Compare-and-set: keys that must be absent. */
  expectAbsent: z.array(z.string()).max(MAX_KEYS_PER_DELTA).optional(),
});

export interface StateEditBody {
  /** Unprefixed keys of one tier; undefined removes the key. */
  changes: Record<string, JsonValue | undefined>;
  reason: string;
  actor: string;
  expected?: Record<string, ExpectedValue>;
}

/** `{"set"?: {key: json}, "remove"?: [key], "reason": string, "actor"?: string}` for the app or user tier. */
export function parseStateEdit(body: JsonValue | undefined): StateEditBody {
  const parsed = parseWith(stateEditSchema, body);
  const changes: Record<string, JsonValue | undefined> = {};
  for (const [key, value] of ownEntries(parsed.set ?? {})) {
    const keyError = keyProblem(key);
    if (keyError) throw badRequest(`set: ${keyError}`);
    const valueError = valueProblem(value);
    if (valueError) throw badRequest(`set.${key}: ${valueError}`);
    setOwn(changes, key, value);
  }
  for (const [index, key] of (parsed.remove ?? []).entries()) {
    const problem =
      keyProblem(key) ??
      (Object.hasOwn(changes, key) ? `"${key}" is ${changes[key] === undefined ? 'listed twice' : 'both set and removed'}` : null);
    if (problem) throw badRequest(`remove.${index}: ${problem}`);
    setOwn(changes, key, undefined);
  }
  const count = Object.keys(changes).length;
  if (count === 0) throw badRequest('set/remove: at least one change is required');
  if (count > MAX_KEYS_PER_DELTA) throw badRequest(`set/remove: ${count} changes, over the limit of ${MAX_KEYS_PER_DELTA}`);
  const expected: Record<string, ExpectedValue> = {};
  for (const [key, value] of ownEntries(parsed.expect ?? {})) setOwn(expected, key, { present: true, value });
  for (const [index, key] of (parsed.expectAbsent ?? []).entries()) {
    if (Object.hasOwn(expected, key)) throw badRequest(`expectAbsent.${index}: "${key}" is also in expect`);
    setOwn(expected, key, { present: false });
  }
  return { changes, reason: parsed.reason, actor: parsed.actor, ...(Object.keys(expected).length > 0 ? { expected } : {}) };
}
