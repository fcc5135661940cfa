import { isAuthError } from '../auth/errors';
import { isDatabaseUnavailable } from '../db/unavailable';
import { redactUrl } from '../db/url';
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
};

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
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
  if (isSessionServiceError(error)) return detailResponse(STATUS_OF[error.code], error.message);
  if (isDatabaseUnavailable(error)) {
    const message = error instanceof Error ? firstLine(redactUrl(error.message)) : 'unknown error';
    console.error('Database unavailable:', error);
    return detailResponse(503, `Database unavailable: ${message}`);
  }
  console.error('Unhandled error in an API route:', error);
  return detailResponse(500, 'Internal server error (the server log has the details).');
}
