/**
 * The address a request came from, for throttling: the last X-Forwarded-For
 * entry. A reverse proxy appends the peer it saw; without one, Next sets the
 * header to the socket's address, unless the client sent its own, which then
 * only chooses its own bucket (the per-account budget still counts it).
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get('x-forwarded-for');
  const last = forwarded?.split(',').at(-1)?.trim();
  return last ? last.slice(0, 64) : 'unknown';
}
