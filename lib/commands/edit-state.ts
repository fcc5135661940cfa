import { z } from 'zod';
import { invalid, failure, type ActionResult } from '../actions/result';
import { setOwn } from '../session-service/json';
import type { SessionService } from '../session-service/service';
import type { JsonValue, StateEntry } from '../session-service/types';
import { keyProblem, parseJsonText, valueProblem } from '../validation/json-text';
import { MAX_KEYS_PER_DELTA, MAX_VALUE_BYTES } from '../validation/limits';
import { fieldErrorsOf, idSchema, reasonSchema } from '../validation/schemas';

const changeSchema = z.object({
  /** The key within its tier, without the app:/user: prefix. */
  key: z.string(),
  /** JSON text of the new value; absent with remove. */
  value: z.string().max(MAX_VALUE_BYTES, 'is too long').optional(),
  remove: z.boolean().optional(),
});

export const editStateInput = z
  .object({
    scope: z.enum(['app', 'user'], { error: 'must be app or user' }),
    appName: idSchema,
    userId: idSchema.optional(),
    changes: z.array(changeSchema).min(1, 'needs at least one change').max(MAX_KEYS_PER_DELTA),
    reason: reasonSchema,
  })
  .refine((input) => input.scope === 'app' || input.userId !== undefined, {
    path: ['userId'],
    message: 'is required to edit user state',
  });

export type EditStateInput = z.input<typeof editStateInput>;

/** Validates a support edit of app or user state and applies it, recorded with actor and reason. */
export async function editStateCommand(
  service: SessionService,
  actor: string,
  raw: unknown,
): Promise<ActionResult<StateEntry[]>> {
  const parsed = editStateInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const input = parsed.data;

  const errors: Record<string, string> = {};
  const changes: Record<string, JsonValue | undefined> = {};
  const seen = new Set<string>();
  input.changes.forEach((change, index) => {
    const keyError = keyProblem(change.key) ?? (seen.has(change.key) ? 'appears twice in one edit' : null);
    if (keyError) errors[`changes.${index}.key`] = keyError;
    seen.add(change.key);
    if (change.remove) {
      setOwn(changes, change.key, undefined);
      return;
    }
    const value = parseJsonText(change.value ?? '');
    const problem = value.ok ? valueProblem(value.value) : value.message;
    if (problem || !value.ok) errors[`changes.${index}.value`] = problem ?? 'is not valid JSON';
    else setOwn(changes, change.key, value.value);
  });
  if (Object.keys(errors).length > 0) return invalid(errors);

  try {
    const entries = await service.editState({
      scope: input.scope,
      appName: input.appName,
      userId: input.userId,
      changes,
      actor,
      reason: input.reason,
    });
    return { ok: true, data: entries };
  } catch (error) {
    return failure(error);
  }
}
