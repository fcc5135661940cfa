import { detailResponse } from './respond';

/*
 * Next answers a method a route does not export with an empty 405 and no
 * Allow header, and its automatic OPTIONS lists every exported method. ADK's
 * FastAPI server answers `{"detail":"Method Not Allowed"}` with `Allow`; each
 * /api route exports the handlers below for the methods it does not serve.
 */

export const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];
/** What a route implements itself; HEAD comes with GET (Next answers it with the GET handler), OPTIONS from here. */
export type ServedMethod = Exclude<RouteMethod, 'HEAD' | 'OPTIONS'>;

export type Unserved<S extends ServedMethod> = Exclude<RouteMethod, S | ('GET' extends S ? 'HEAD' : never)>;

const generated = new WeakSet<object>();

/** Whether a route's export is one of these generated answers rather than a real handler (for tests). */
export function isGeneratedMethodHandler(handler: unknown): boolean {
  return typeof handler === 'function' && generated.has(handler);
}

/** The Allow header for a route serving these methods. */
export function allowHeader(served: readonly ServedMethod[]): string {
  const allowed = new Set<RouteMethod>([...served, 'OPTIONS']);
  if (allowed.has('GET')) allowed.add('HEAD');
  return [...allowed].sort().join(', ');
}

/**
 * The handlers of a route serving `served`, for every other method: a JSON
 * 405 with Allow, and OPTIONS as a 204 with the same Allow. Usage:
 * `export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET', 'POST');`
 */
export function otherMethods<const S extends ServedMethod[]>(...served: S): Record<Unserved<S[number]>, () => Promise<Response>> {
  const allow = allowHeader(served);
  const handlers: Partial<Record<RouteMethod, () => Promise<Response>>> = {};
  for (const method of ROUTE_METHODS) {
    if ((served as ServedMethod[]).includes(method as ServedMethod) || (method === 'HEAD' && served.includes('GET'))) continue;
    const handler =
      method === 'OPTIONS'
        ? async () => new Response(null, { status: 204, headers: { Allow: allow } })
        : async () => detailResponse(405, 'Method Not Allowed', { Allow: allow });
    generated.add(handler);
    handlers[method] = handler;
  }
  return handlers as Record<Unserved<S[number]>, () => Promise<Response>>;
}
