import { z } from 'zod';
import { domainFailure, invalid, type ActionResult } from './result';
import { parseCut } from '../data/value-cut';
import { stateConflictsOf, type StateConflict } from '../session-service/errors';
import { setOwn } from '../session-service/json';
import type { ExpectedValue, SessionStore, StateEdit } from '../session-service/store';
import type { JsonValue, StateEntry } from '../session-service/types';
import { mergeSpellings, spellingOfValue, type ValueSpellings } from '../session-service/value-spelling';
import { parseJsonText, valueProblem } from '../validation/json-text';
import { tierKey, type TierKey } from '../validation/tier-key';
import { formatBytes, MAX_KEYS_PER_DELTA, MAX_VALUE_BYTES } from '../validation/limits';
import { fieldErrorsOf, idSchema, reasonSchema } from '../validation/schemas';

const CUT_VALUE_MESSAGE = 'is too large to edit on the page (it is shown cut): change it through the API (PATCH .../state).';

/** What the person saw for a key when they confirmed the diff: absent, or this value. */
const seenSchema = z.union(
  [
    z.object({ present: z.literal(false) }),
    // z.unknown keeps the value by reference (a rebuilt object would lose a `__proto__` key).
    z.object({ present: z.literal(true), value: z.unknown() }),
  ],
  { error: 'must be {present: false} or {present: true, value}' },
);

const changeSchema = z.object({
  /** The key within its tier, without the app:/user: prefix. */
  key: z.string({ error: 'must be a string' }),
  /** JSON text of the new value; ignored with remove. */
  value: z
    .string({ error: 'must be a string' })
    .max(MAX_VALUE_BYTES, `is over the ${formatBytes(MAX_VALUE_BYTES)} limit (${MAX_VALUE_BYTES.toLocaleString('en')} characters)`)
    .optional(),
  remove: z.boolean().optional(),
  /** When given, the edit is refused if the key no longer holds what the person saw. */
  seen: seenSchema.optional(),
});

export const editStateInput = z
  .object({
    scope: z.enum(['app', 'user'], { error: 'must be app or user' }),
    appName: idSchema,
    userId: idSchema.optional(),
    changes: z
      .array(changeSchema, { error: 'must be a list of changes' })
      .min(1, 'needs at least one change')
      .max(MAX_KEYS_PER_DELTA, `must have at most ${MAX_KEYS_PER_DELTA} changes`),
    reason: reasonSchema,
  })
  .refine((input) => input.scope === 'app' || input.userId !== undefined, {
    path: ['userId'],
    message: 'is required to edit user state',
  });

export type EditStateInput = z.input<typeof editStateInput>;

function describeCurrent({ current, by }: StateConflict): string {
  if (current === undefined) return 'it has been removed';
  const text = JSON.stringify(current);
  return `it is now ${text.length > 80 ? `${text.slice(0, 77)}…` : text}${by === undefined ? '' : ` by ${by}`}`;
}

/** What the person confirmed for each key they saw, checked by the store in the write's own transaction. */
function expectedOf(input: z.infer<typeof editStateInput>): Record<string, ExpectedValue> | undefined {
  const expected: Record<string, ExpectedValue> = {};
  for (const change of input.changes) {
    if (!change.seen) continue;
    setOwn(expected, change.key, change.seen.present ? { present: true, value: change.seen.value as JsonValue } : { present: false });
  }
  return Object.keys(expected).length > 0 ? expected : undefined;
}

function tierEntries(service: SessionStore, input: z.infer<typeof editStateInput>): Promise<StateEntry[]> {
  return input.scope === 'app' ? service.getAppState(input.appName) : service.getUserState(input.appName, input.userId ?? '');
}

/**
 * Applies a support edit of app or user state, recorded with actor and
 * reason. A key that no longer holds what the editor saw refuses the whole
 * edit: CONFLICT, with what each such key holds now by key.
 */
export async function applyStateEdit(store: SessionStore, edit: StateEdit): Promise<ActionResult<StateEntry[]>> {
  try {
    return { ok: true, data: await store.editState(edit) };
  } catch (error) {
    const conflicts = stateConflictsOf(error);
    if (!conflicts) return domainFailure(error);
    const fieldErrors = Object.fromEntries(conflicts.map((conflict) => [conflict.key, describeCurrent(conflict)]));
    return { ok: false, code: 'CONFLICT', message: (error as Error).message, fieldErrors };
  }
}

/** Validates a support edit of app or user state and applies it, recorded with actor and reason. */
export async function editStateCommand(service: SessionStore, actor: string, raw: unknown): Promise<ActionResult<StateEntry[]>> {
  const parsed = editStateInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const input = parsed.data;

  const errors: Record<string, string> = {};
  const changes: Record<string, JsonValue | undefined> = {};
  const keys = new Set<string>();
  const named: z.infer<typeof changeSchema>[] = [];
  const spellings: (ValueSpellings | undefined)[] = [];
  let existing: Set<string>;
  try {
    existing = new Set((await tierEntries(service, input)).map((entry) => entry.key));
  } catch (error) {
    return domainFailure(error);
  }
  input.changes.forEach((change, index) => {
    // Keys already in the tier are taken as stored (so an odd one can still be fixed or removed); new ones as meant.
    const tier: TierKey = existing.has(change.key) ? { ok: true, key: change.key, note: null } : tierKey(input.scope, change.key);
    const key = tier.ok ? tier.key : change.key;
    named.push({ ...change, key });
    // The page shows a large value cut (lib/data/value-cut.ts): that preview is not the value to edit or compare with.
    if (change.seen?.present && typeof change.seen.value === 'string' && parseCut(change.seen.value)) {
      errors[`changes.${index}.value`] = CUT_VALUE_MESSAGE;
      return;
    }
    const keyError = (tier.ok ? null : tier.message) ?? (keys.has(key) ? 'appears twice in one edit' : null);
    if (keyError) errors[`changes.${index}.key`] = keyError;
    keys.add(key);
    if (change.remove) {
      setOwn(changes, key, undefined);
      return;
    }
    const value = parseJsonText(change.value ?? '');
    const problem = value.ok
      ? typeof value.value === 'string' && parseCut(value.value)
        ? CUT_VALUE_MESSAGE
        : valueProblem(value.value)
      : value.message;
    if (problem !== null) errors[`changes.${index}.value`] = problem;
    else if (value.ok) {
      setOwn(changes, key, value.value);
      // The value as typed: a float written `2.0` is stored `2.0`.
      spellings.push(spellingOfValue(key, change.value ?? ''));
    }
  });
  if (Object.keys(errors).length > 0) return invalid(errors);

  const expected = expectedOf({ ...input, changes: named });
  const spelled = mergeSpellings(...spellings);
  const result = await applyStateEdit(service, {
    scope: input.scope,
    appName: input.appName,
    userId: input.userId,
    changes,
    actor,
    reason: input.reason,
    ...(expected ? { expected } : {}),
    ...(spelled ? { spellings: spelled } : {}),
  });
  if (result.ok || result.code !== 'CONFLICT') return result;
  const fieldErrors: Record<string, string> = {};
  for (const [key, now] of Object.entries(result.fieldErrors ?? {})) {
    fieldErrors[`changes.${named.findIndex((change) => change.key === key)}.key`] = `changed since you opened it: ${now}`;
  }
  return {
    ok: false,
    code: 'CONFLICT',
    message: 'Someone changed this state since you opened the edit; nothing was saved. Review the new values and confirm again.',
    fieldErrors,
  };
}
