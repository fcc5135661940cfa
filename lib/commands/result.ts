import type { AuthErrorCode } from '../auth/errors';
import { databaseFailureSummary, isDatabaseUnavailable } from '../db/unavailable';
import { isSessionServiceError, type ErrorCode } from '../session-service/errors';

/**
 * Why a server action refused. Besides the service's codes: CONFLICT (a
 * support edit whose keys changed since the person saw them), UNAUTHENTICATED,
 * FORBIDDEN and READ_ONLY (lib/auth), INTERNAL (a bug; details in the server log) and,
 * on the client only, UNREACHABLE (the request never got an answer).
 */
export type ActionErrorCode = ErrorCode | AuthErrorCode | 'CONFLICT' | 'INTERNAL' | 'UNREACHABLE';

export interface ActionFailure {
  ok: false;
  code: ActionErrorCode;
  message: string;
  /** Messages by form field path (`stateDelta`, `changes.0.value`, `form`). */
  fieldErrors?: Record<string, string>;
}

/** What a server action returns: errors are values the form can show next to its fields. */
export type ActionResult<T> = { ok: true; data: T } | ActionFailure;

export function invalid(fieldErrors: Record<string, string>, message = 'Some fields need attention.'): ActionFailure {
  return { ok: false, code: 'INVALID_INPUT', message, fieldErrors };
}

/**
 * A domain error as the value a command returns; anything else (a database
 * failure, a bug) is thrown on, for each edge to answer in its own words:
 * an action by failure() below, a route by lib/http/errors.ts.
 */
export function domainFailure(error: unknown): ActionFailure {
  if (isSessionServiceError(error)) return { ok: false, code: error.code, message: error.message };
  throw error;
}

/** Runs a command's work: its value, or its domain error as a value. */
export async function attempt<T>(work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    return domainFailure(error);
  }
}

/** An action's answer to whatever its command threw: domain errors as values; anything else logged and reported without internals. */
export function failure(error: unknown): ActionFailure {
  if (isSessionServiceError(error)) return { ok: false, code: error.code, message: error.message };
  if (isDatabaseUnavailable(error)) {
    console.error(`Database unavailable: ${databaseFailureSummary(error)}`);
    return { ok: false, code: 'UNAVAILABLE', message: 'The database is unavailable right now; nothing was saved. Try again shortly.' };
  }
  console.error(error);
  return { ok: false, code: 'INTERNAL', message: 'Something went wrong on the server; nothing was saved.' };
}
