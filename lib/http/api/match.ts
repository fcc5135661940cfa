// Finding a request's handler in the API table: for Next's route files
// (routeHandlers, one per pattern) and for the server door (matchApiRoute).
import type { ApiRequest } from '../api-request';
import { otherMethods, type ServedMethod, type Unserved } from '../methods';
import { withoutStore } from '../../paths';
import { detailResponse } from '../respond';
import { matchSegments, specificity, type PathParams } from './pattern';
import { API, type ApiHandler, type ApiPattern } from './table';

type Served<P extends ApiPattern> = keyof (typeof API)[P] & ServedMethod;

/**
 * A route file's exports for its pattern: the table's handlers, and for every
 * other method FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). HEAD
 * beside GET is left to Next, which answers it with the GET handler.
 */
export function routeHandlers<P extends ApiPattern>(pattern: P): (typeof API)[P] & Record<Unserved<Served<P>>, () => Promise<Response>> {
  const served = API[pattern];
  return { ...otherMethods(...(Object.keys(served) as Served<P>[])), ...served };
}

export interface ApiMatch {
  pattern: ApiPattern;
  handler: ApiHandler;
  /** Decoded exactly once, as Next decodes a dynamic segment. */
  params: PathParams;
}

/** Patterns most specific first, so that a static segment wins over a parameter, as in Next's router. */
const PATTERNS = (Object.keys(API) as ApiPattern[]).sort((a, b) => (specificity(a) < specificity(b) ? 1 : -1));

/** Each pattern split at `/` once, in PATTERNS' order. */
const SPLIT_PATTERNS: readonly { pattern: ApiPattern; segments: readonly string[] }[] = PATTERNS.map((pattern) => ({
  pattern,
  segments: pattern.split('/'),
}));

const answers = new Map(PATTERNS.map((pattern) => [pattern, routeHandlers(pattern) as Partial<Record<string, ApiHandler>>]));

const malformedPath: ApiHandler = async () => detailResponse(400, 'Bad Request');

/**
 * The handler for a request, or null when no pattern matches (the caller
 * hands the request to Next). `pathname` is the URL parser's (dot segments
 * resolved, percent-encoding kept). A matched path with a method the route
 * does not serve gets its 405 (OPTIONS: 204); HEAD gets the GET handler; a
 * parameter that is not valid percent-encoding gets a 400, as from Next.
 * A method outside ROUTE_METHODS is left to Next too.
 */
export function matchApiRoute(method: string, pathname: string): ApiMatch | null {
  // `/api/stores/{id}/...` is the same table for another store (the handler's scope picks the store: handler.ts).
  const path = withoutStore(pathname).split('/');
  for (const { pattern, segments } of SPLIT_PATTERNS) {
    const match = matchSegments(segments, path);
    if (match === null) continue;
    if (match === 'malformed') return { pattern, handler: malformedPath, params: {} };
    const handlers = answers.get(pattern) ?? {};
    const handler = handlers[method] ?? (method === 'HEAD' ? handlers.GET : undefined);
    return handler ? { pattern, handler, params: match.params } : null;
  }
  return null;
}

/** A handler that needs no parameters from Next: it finds its own in the table. */
type PathHandler = (request: ApiRequest) => Promise<Response>;

/** The exports of the route file for `/api/stores/{store}/...`: the table's handler for the rest of the path, or FastAPI's JSON 404. */
export function storeRouteHandlers(): Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', PathHandler> {
  const dispatch =
    (method: string): PathHandler =>
    async (request) => {
      const match = matchApiRoute(method, new URL(request.url).pathname);
      return match ? match.handler(request, { params: Promise.resolve(match.params) }) : detailResponse(404, 'Not Found');
    };
  return {
    GET: dispatch('GET'),
    POST: dispatch('POST'),
    PUT: dispatch('PUT'),
    PATCH: dispatch('PATCH'),
    DELETE: dispatch('DELETE'),
    OPTIONS: dispatch('OPTIONS'),
  };
}
