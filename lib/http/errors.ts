import { isAuthError } from '../auth/errors';
import type { ActionErrorCode, ActionFailure, ActionResult } from '../commands/result';
import { databaseFailureSummary, isDatabaseUnavailable } from '../db/unavailable';
import { isSessionServiceError } from '../session-service/errors';
import { HttpError } from './problem';
import { detailResponse } from './respond';

const STATUS_OF: Record<ActionErrorCode, number> = {
  INVALID_INPUT: 400,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  STALE_SESSION: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNAVAILABLE: 503,
  READ_ONLY: 409,
  UNSUPPORTED: 405,
  CONFLICT: 409,
  UNREADABLE: 422,
  NO_AGENT_SERVER: 409,
  AGENT_UNREACHABLE: 502,
  AGENT_TIMEOUT: 504,
  AGENT_FAILED: 502,
  AGENT_SESSION_MISSING: 409,
  NOT_TEST_NAMESPACE: 403,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  INTERNAL: 500,
  // The client's own word for a request that got no answer; a server never answers it.
  UNREACHABLE: 502,
};

/** A command's refusal (lib/commands/result.ts), thrown from a handler to be answered by errorResponse. */
export class CommandRefusal extends Error {
  constructor(readonly failure: ActionFailure) {
    super(failure.message);
    this.name = 'CommandRefusal';
  }
}

/** A command's value, or its refusal thrown for the route wrapper to answer with its status. */
export function resultOf<T>(result: ActionResult<T>): T {
  if (result.ok) return result.data;
  throw new CommandRefusal(result);
}

/** Field errors read as a 400's detail does ("atSeq: must be a whole event number; reason: is required"). */
function refusalDetail({ message, fieldErrors }: ActionFailure): string {
  const fields = Object.entries(fieldErrors ?? {}).map(([field, problem]) => (field === 'form' ? problem : `${field}: ${problem}`));
  return fields.length > 0 ? fields.join('; ') : message;
}

/** How long a client should wait before retrying after a database failure: outages the pool can ride out end within seconds. */
export const RETRY_AFTER_SECONDS = 2;

/** The 503 every database failure answers, logged as one line (an outage is not a bug; its stack says nothing). */
export function databaseUnavailableResponse(error: unknown): Response {
  const message = databaseFailureSummary(error);
  console.error(`Database unavailable: ${message}`);
  return detailResponse(503, `Database unavailable: ${message}`, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
}

function codeResponse(code: ActionErrorCode, detail: string): Response {
  const headers: Partial<Record<ActionErrorCode, HeadersInit>> = {
    UNAUTHENTICATED: { 'WWW-Authenticate': 'Bearer realm="statehouse"' },
    UNAVAILABLE: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  };
  return detailResponse(STATUS_OF[code], detail, headers[code]);
}

/**
 * The response for anything a handler throws: HttpErrors as they are, domain
 * errors by code, database outages as 503, everything else as a 500 that
 * names nothing internal (the details go to the server log).
 */
export function errorResponse(error: unknown): Response {
  if (error instanceof HttpError) return detailResponse(error.status, error.detail);
  // An auth refusal is a 403 whatever its reason (a read-only console too), unless nobody is proven.
  if (isAuthError(error)) return codeResponse(error.code === 'UNAUTHENTICATED' ? 'UNAUTHENTICATED' : 'FORBIDDEN', error.message);
  if (isSessionServiceError(error)) return codeResponse(error.code, error.message);
  if (error instanceof CommandRefusal) {
    return codeResponse(error.failure.code, error.failure.code === 'INVALID_INPUT' ? refusalDetail(error.failure) : error.failure.message);
  }
  if (isDatabaseUnavailable(error)) return databaseUnavailableResponse(error);
  console.error('Unhandled error in an API route:', error);
  return detailResponse(500, 'Internal server error (the server log has the details).');
}
