import { isSessionServiceError, type ErrorCode } from '../session-service/errors';

/** What a server action returns: errors are values the form can show next to its fields. */
export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; code: ErrorCode | 'INTERNAL'; message: string; fieldErrors?: Record<string, string> };

export function invalid(fieldErrors: Record<string, string>, message = 'Some fields need attention.'): ActionResult<never> {
  return { ok: false, code: 'INVALID_INPUT', message, fieldErrors };
}

/** Domain errors become values; anything else is logged and reported without internals. */
export function failure(error: unknown): ActionResult<never> {
  if (isSessionServiceError(error)) return { ok: false, code: error.code, message: error.message };
  console.error(error);
  return { ok: false, code: 'INTERNAL', message: 'Something went wrong on the server; nothing was saved.' };
}
