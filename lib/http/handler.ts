import type { ApiRequest } from './api-request';
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import type { Principal } from '../auth/principal';
import { isDatabaseUnavailable } from '../db/unavailable';
import { countUnavailable, observeRequest } from '../observability/metrics';
import { routeTemplate } from '../observability/route-template';
import { inSpan } from '../observability/tracing';
import { isSessionServiceError } from '../session-service/errors';
import { errorResponse } from './errors';
import { authorizeRequest } from './auth';
import { checkOrigin } from './origin';
import { detailResponse } from './respond';
import { requestUrl } from './request-url';
import { storeOfPath } from '../paths';
import { inStoreScope } from '../services';

/** What a 503 was for, as the metrics count it. */
function unavailableCause(error: unknown): 'database' | 'store' | 'other' {
  if (isDatabaseUnavailable(error)) return 'database';
  if (isSessionServiceError(error) && error.code === 'UNAVAILABLE') return 'store';
  return 'other';
}

/**
 * Runs one API request: the origin check, access control (the principal and
 * the role the request needs), the handler, the error mapping; and times it
 * into the metrics under its route template, whichever door it came through.
 */
function serve<P extends object>(
  request: ApiRequest,
  params: () => Promise<P | undefined>,
  handler: (principal: Principal, params: P | undefined) => Promise<Response>,
): Promise<Response> {
  // `/api/stores/{id}/...` is that store's API; the rest is the first store's, whatever the headers say.
  const { pathname } = requestUrl(request);
  const store = storeOfPath(pathname);
  if (store === null) return Promise.resolve(detailResponse(404, 'Not Found'));
  return inStoreScope(store, () =>
    inSpan(`${request.method} /api`, { 'http.request.method': request.method }, (span) =>
      measure(request, pathname, params, handler, span),
    ),
  );
}

async function measure<P extends object>(
  request: ApiRequest,
  pathname: string,
  params: () => Promise<P | undefined>,
  handler: (principal: Principal, params: P | undefined) => Promise<Response>,
  span: Span,
): Promise<Response> {
  const started = performance.now();
  let resolved: P | undefined;
  let response: Response;
  let failure: unknown;
  try {
    // First, so even a refused request counts under its template, never its raw path.
    resolved = await params();
    checkOrigin(request);
    const principal = await authorizeRequest(request, pathname);
    response = await handler(principal, resolved);
  } catch (error) {
    failure = error;
    response = errorResponse(error);
  }
  const route = routeTemplate(pathname, resolved);
  observeRequest({ method: request.method, route, status: response.status }, (performance.now() - started) / 1000);
  if (response.status === 503) countUnavailable(unavailableCause(failure));
  span.updateName(`${request.method} ${route}`);
  span.setAttributes({ 'http.route': route, 'http.response.status_code': response.status });
  if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  return response;
}

/**
 * A route handler with the origin check, access control and the error
 * mapping around it. Next 16 passes params as a Promise; they arrive
 * URL-decoded once.
 */
export function route<P extends object>(
  handler: (request: ApiRequest, params: P, principal: Principal) => Promise<Response>,
): (request: ApiRequest, context: { params: Promise<P> }) => Promise<Response> {
  return (request, context) =>
    serve(
      request,
      () => context.params,
      (principal, params) => handler(request, params as P, principal),
    );
}

/** A route without path parameters. */
export function plainRoute(
  handler: (request: ApiRequest, principal: Principal) => Promise<Response>,
): (request: ApiRequest) => Promise<Response> {
  return (request) =>
    serve(
      request,
      async () => undefined,
      (principal) => handler(request, principal),
    );
}
