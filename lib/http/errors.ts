import { isAuthError } from '../auth/errors';
import { databaseFailureSummary, isDatabaseUnavailable } from '../db/unavailable';
import { isSessionServiceError, type ErrorCode } from '../session-service/errors';
import { HttpError } from './problem';
import { detailResponse } from './respond';

const STATUS_OF: Record<ErrorCode, number> = {
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
};

/** How long a client should wait before retrying after a database failure: outages the pool can ride out end within seconds. */
export const RETRY_AFTER_SECONDS = 2;

/** The 503 every database failure answers, logged as one line (an outage is not a bug; its stack says nothing). */
export function databaseUnavailableResponse(error: unknown): Response {
  const message = databaseFailureSummary(error);
  console.error(`Database unavailable: ${message}`);
  return detailResponse(503, `Database unavailable: ${message}`, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
}

/**
 * The response for anything a handler throws: HttpErrors as they are, domain
 * errors by code, database outages as 503, everything else as a 500 that
 * names nothing internal (the details go to the server log).
 */
export function errorResponse(error: unknown): Response {
  if (error instanceof HttpError) return detailResponse(error.status, error.detail);
  if (isAuthError(error)) {
    return error.code === 'UNAUTHENTICATED'
      ? detailResponse(401, error.message, { 'WWW-Authenticate': 'Bearer realm="statehouse"' })
      : detailResponse(403, error.message);
  }
  if (isSessionServiceError(error)) {
    const retry = error.code === 'UNAVAILABLE' ? { 'Retry-After': String(RETRY_AFTER_SECONDS) } : undefined;
    return detailResponse(STATUS_OF[error.code], error.message, retry);
  }
  if (isDatabaseUnavailable(error)) return databaseUnavailableResponse(error);
  console.error('Unhandled error in an API route:', error);
  return detailResponse(500, 'Internal server error (the server log has the details).');
}
