import type { Principal } from '../auth/principal';
import { errorResponse } from './errors';
import { authorizeRequest } from './auth';
import { checkOrigin } from './origin';

/**
 * A route handler with the origin check, access control (the principal and
 * the role the request needs) and the error mapping around it.
 * Next 16 passes params as a Promise; they arrive URL-decoded once.
 */
export function route<P extends object>(
  handler: (request: Request, params: P, principal: Principal) => Promise<Response>,
): (request: Request, context: { params: Promise<P> }) => Promise<Response> {
  return async (request, context) => {
    try {
      checkOrigin(request);
      const principal = await authorizeRequest(request);
      return await handler(request, await context.params, principal);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** A route without path parameters. */
export function plainRoute(
  handler: (request: Request, principal: Principal) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      checkOrigin(request);
      const principal = await authorizeRequest(request);
      return await handler(request, principal);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
