import { z } from 'zod';
import { failure, invalid, type ActionResult } from './result';
import type { Principal } from '../auth/principal';
import { MIN_PASSWORD_LENGTH, type Account, type AccountStore, type ApiTokenInfo } from '../auth/store';
import { ROLES } from '../auth/roles';
import { MAX_STORED_INTEGER } from '../validation/limits';
import { fieldErrorsOf } from '../validation/schemas';
import { nameProblem } from '../validation/text';

/*
 * Account management from the admin page: validation, the lock-out guard,
 * and the store. The actions around these check the admin role.
 */

const nameField = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(64, 'must be at most 64 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._@-]*$/, 'may use letters, digits, ".", "_", "@" and "-", starting with a letter or digit');
const passwordField = z
  .string({ error: 'is required' })
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(1024, 'must be at most 1024 characters');
const roleField = z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` });

export const createAccountInput = z.object({ name: nameField, password: passwordField, role: roleField });
export const updateAccountInput = z
  .object({ name: nameField, role: roleField.optional(), disabled: z.boolean().optional() })
  .refine((input) => input.role !== undefined || input.disabled !== undefined, { message: 'Nothing to change.', path: ['form'] });
export const setPasswordInput = z.object({ name: nameField, password: passwordField });
export const createTokenInput = z.object({
  name: nameField,
  label: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(100, 'must be at most 100 characters')
    // Stored in its own column: PostgreSQL refuses NUL, and the drivers turn an unpaired surrogate into U+FFFD.
    .superRefine((label, ctx) => {
      const problem = nameProblem(label);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
});
export const revokeTokenInput = z.object({
  id: z
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .positive('must be positive')
    .max(MAX_STORED_INTEGER, `must be at most ${MAX_STORED_INTEGER}`),
});

function parse<S extends z.ZodType>(schema: S, input: unknown): { ok: true; data: z.infer<S> } | ReturnType<typeof invalid> {
  const parsed = schema.safeParse(input);
  return parsed.success ? { ok: true, data: parsed.data } : invalid(fieldErrorsOf(parsed.error));
}

async function run<T>(work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    return failure(error);
  }
}

export async function createAccountCommand(store: AccountStore, input: unknown): Promise<ActionResult<Account>> {
  const parsed = parse(createAccountInput, input);
  if (!parsed.ok) return parsed;
  return run(() => store.createAccount(parsed.data));
}

/** Role and enabled state; an admin cannot demote or disable the account they are signed in with (nobody would be left to undo it). */
export async function updateAccountCommand(store: AccountStore, by: Principal, input: unknown): Promise<ActionResult<Account>> {
  const parsed = parse(updateAccountInput, input);
  if (!parsed.ok) return parsed;
  const { name, role, disabled } = parsed.data;
  if (by.via !== 'local' && name === by.name && ((role !== undefined && role !== 'admin') || disabled === true)) {
    return invalid({ form: 'You cannot demote or disable the account you are signed in with; ask another admin.' });
  }
  return run(async () => {
    let account = role === undefined ? null : await store.setRole(name, role);
    if (disabled !== undefined) account = await store.setDisabled(name, disabled);
    if (!account) throw new Error('update without a change');
    return account;
  });
}

export async function setPasswordCommand(store: AccountStore, input: unknown): Promise<ActionResult<null>> {
  const parsed = parse(setPasswordInput, input);
  if (!parsed.ok) return parsed;
  return run(async () => {
    await store.setPassword(parsed.data.name, parsed.data.password);
    return null;
  });
}

export async function createTokenCommand(
  store: AccountStore,
  input: unknown,
): Promise<ActionResult<{ secret: string; token: ApiTokenInfo }>> {
  const parsed = parse(createTokenInput, input);
  if (!parsed.ok) return parsed;
  return run(() => store.createToken(parsed.data.name, parsed.data.label));
}

export async function revokeTokenCommand(store: AccountStore, input: unknown): Promise<ActionResult<ApiTokenInfo>> {
  const parsed = parse(revokeTokenInput, input);
  if (!parsed.ok) return parsed;
  return run(() => store.revokeToken(parsed.data.id));
}
