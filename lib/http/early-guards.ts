/*
 * Checks proxy.ts makes before anything reads the request: each answers a
 * hostile or malformed request with a JSON refusal instead of letting it
 * reach Next's own handling (a text/plain 500, a logged stack, a body
 * buffered for someone who never signed in).
 */

/** The methods any route serves; anything else (TRACE, CONNECT, WebDAV's) is a 405 at the door. */
export const KNOWN_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const ALLOW_ANY_ROUTE = KNOWN_METHODS.join(', ');

export function isKnownMethod(method: string): boolean {
  return (KNOWN_METHODS as readonly string[]).includes(method.toUpperCase());
}

/** Whether some path segment is not valid percent-encoded UTF-8 (`%`, `%ZZ`, `%C0%AF`): routing would fail decoding it. */
export function hasMalformedEncoding(pathname: string): boolean {
  for (const segment of pathname.split('/')) {
    if (!segment.includes('%')) continue;
    try {
      decodeURIComponent(segment);
    } catch {
      return true;
    }
  }
  return false;
}

/**
 * The most a request may send before it has proven who sent it: a sign-in
 * form, a small API call. Larger (or chunked, so of unknown length) bodies
 * are only read for a principal; Next buffers a copy of every body for the
 * proxy, so refusing after the fact would already have cost the memory.
 */
export const MAX_ANONYMOUS_BODY_BYTES = 64 * 1024;

/** Whether the request announces a body that may exceed MAX_ANONYMOUS_BODY_BYTES (chunked bodies count as large). */
export function hasLargeBody(headers: Pick<Headers, 'get' | 'has'>): boolean {
  const length = headers.get('content-length');
  if (length !== null) return !/^\s*\d+\s*$/.test(length) || Number(length) > MAX_ANONYMOUS_BODY_BYTES;
  return headers.has('transfer-encoding');
}

/** Whether the request carries a body at all. */
export function hasBody(headers: Headers): boolean {
  const length = headers.get('content-length');
  return (length !== null && length.trim() !== '0') || headers.has('transfer-encoding');
}

/** Every /api answer: never stored by a browser or shared cache (state changes under it; tokens read it). */
export const API_CACHE_CONTROL = 'no-store';
