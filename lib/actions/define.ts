import { revalidatePath } from 'next/cache';
import type { z } from 'zod';
import { isAuthError, readOnlyRefusal } from '../auth/errors';
import type { Principal } from '../auth/principal';
import type { Role } from '../auth/roles';
import { requireRole } from '../current-principal';
import { failure, invalid, type ActionFailure, type ActionResult } from '../commands/result';
import { isReadOnly } from '../config';
import { observeAction } from '../observability/metrics';
import { storeRoot, userPath } from '../paths';
import { requestedStoreId } from '../services';
import { fieldErrorsOf } from '../validation/schemas';

/** A page to re-render after the write: its path, and 'layout' when every page below it shows the change too. */
export type Revalidation = readonly [path: string, type?: 'layout' | 'page'];

export interface ActionSpec<S extends z.ZodType, T> {
  /** The action's name in the metrics (`statehouse_server_action_duration_seconds{action}`). */
  name: string;
  /** The role the write needs (lib/actions/authorize.ts WRITE_ROLES); a function of the raw input when the input decides it. */
  role: Role | ((raw: unknown) => Role);
  /** The input's schema, or the schema the raw input picks; a refusal is INVALID_INPUT with messages by field. */
  input: S | ((raw: unknown) => S);
  /** The write itself, usually one lib/commands call: its domain refusals come back as values. */
  run: (input: z.output<S>, principal: Principal) => Promise<ActionResult<T>>;
  /** What to re-render, given the input and what the write came to; nothing when it returns null or false. */
  revalidate?: (input: z.output<S>, result: ActionResult<T>) => Revalidation | null | false;
}

/** What a family of actions shares: the role, and the service its lib/commands calls write to. */
export interface ActionFamily<C> {
  role: Role;
  context: () => Promise<C>;
}

/**
 * The specs of one family's actions: each names its input, its lib/commands
 * call `command(context, actor, input)` (the actor is the signed-in account's
 * name), what it re-renders and, where it needs more than the family's, its role.
 */
export function actionFamily<C>(family: ActionFamily<C>) {
  return <S extends z.ZodType, T>(
    name: string,
    input: ActionSpec<S, T>['input'],
    command: (context: C, actor: string, input: z.output<S>) => Promise<ActionResult<T>>,
    revalidate?: ActionSpec<S, T>['revalidate'],
    role: Role = family.role,
  ): ActionSpec<S, T> => ({
    name,
    role,
    input,
    run: async (input, principal) => command(await family.context(), principal.name, input),
    revalidate,
  });
}

/** After a write that succeeded, every page under the input's user (its lists show what the write changed). */
export function underUser(input: { appName: string; userId: string }, result: ActionResult<unknown>): Revalidation | false {
  return result.ok && [userPath(input.appName, input.userId), 'layout'];
}

/**
 * The one way to write a server action: a direct POST can reach it with any
 * arguments, so it checks, in order, that the console takes writes at all
 * (STATEHOUSE_READ_ONLY), the caller's role (the same roles as the HTTP API,
 * lib/auth/policy.ts) and the input, then runs the write and re-renders the
 * pages it changed. Every refusal is a value the form shows; a database
 * failure or a bug becomes UNAVAILABLE or INTERNAL (lib/commands/result.ts),
 * never a throw that would lose what the person typed.
 */
export function defineAction<S extends z.ZodType, T>(spec: ActionSpec<S, T>): (input: z.input<S>) => Promise<ActionResult<T>> {
  const checked = checkedAction(spec);
  return async (raw) => {
    const started = performance.now();
    const result = await checked(raw);
    observeAction({ action: spec.name, outcome: result.ok ? 'ok' : result.code }, (performance.now() - started) / 1000);
    return result;
  };
}

function checkedAction<S extends z.ZodType, T>(spec: ActionSpec<S, T>): (raw: unknown) => Promise<ActionResult<T>> {
  return async (raw) => {
    let input: z.output<S>;
    let result: ActionResult<T>;
    try {
      const allowed = await principalFor(typeof spec.role === 'function' ? spec.role(raw) : spec.role);
      if (!allowed.ok) return allowed;
      const parsed = (typeof spec.input === 'function' ? spec.input(raw) : spec.input).safeParse(raw);
      if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
      input = parsed.data;
      result = await spec.run(input, allowed.principal);
    } catch (error) {
      return failure(error);
    }
    const page = spec.revalidate?.(input, result);
    // The page as the request's store shows it (`/stores/{id}/...`), or at the root for the first store.
    if (page) revalidatePath(`${storeRoot(await requestedStoreId())}${page[0]}`, page[1]);
    return result;
  };
}

/** The signed-in principal when the console takes writes and their role suffices, else the refusal as a value. */
async function principalFor(role: Role): Promise<{ ok: true; principal: Principal } | ActionFailure> {
  try {
    if (isReadOnly()) throw readOnlyRefusal();
    return { ok: true, principal: await requireRole(role) };
  } catch (error) {
    if (isAuthError(error)) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}
