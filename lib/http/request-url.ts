import type { ApiRequest } from './api-request';

/**
 * The parsed URL of a request, parsed once: route(), the query, the origin
 * check and access control each read it, and a small read spends a few
 * microseconds per parse. Callers only read it; it is never to be changed.
 */
const parsed = new WeakMap<ApiRequest, URL>();

export function requestUrl(request: ApiRequest): URL {
  let url = parsed.get(request);
  if (url === undefined) {
    url = new URL(request.url);
    parsed.set(request, url);
  }
  return url;
}

/** A request made from `url`, whose readers take that URL rather than parse it again (the /api door has it parsed already). */
export function madeFromUrl<R extends ApiRequest>(request: R, url: URL): R {
  parsed.set(request, url);
  return request;
}
