import type { ApiRequest } from './api-request';
import { env } from '../env';
import { HttpError } from './problem';
import { requestUrl } from './request-url';

/*
 * Cross-site request forgery guard, as ADK's API server has
 * (_OriginCheckMiddleware). The API has no sign-in in local mode and reads
 * JSON whatever the Content-Type, so without this any web page open in the
 * operator's browser could POST, PATCH or DELETE through a "simple" request.
 * Browsers always send Origin on such requests; scripts and ADK clients send
 * none and pass.
 */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** STATEHOUSE_ALLOWED_ORIGINS: comma-separated origins (or `*`) allowed besides the server's own. */
const configuredOrigins = () => env().STATEHOUSE_ALLOWED_ORIGINS;

const unquote = (value: string) => (value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value);
const firstValue = (value: string | null) => value?.split(',')[0]?.trim() || undefined;

/** The origin the client addressed: proxy headers first (Forwarded, X-Forwarded-*), then Host. */
function requestOrigin(request: ApiRequest): string {
  const url = requestUrl(request);
  const forwarded = firstValue(request.headers.get('forwarded'));
  if (forwarded) {
    const pairs = new Map(
      forwarded.split(';').map((pair) => {
        const [name = '', value = ''] = pair.split('=');
        return [name.trim().toLowerCase(), unquote(value.trim())] as const;
      }),
    );
    const proto = pairs.get('proto');
    const host = pairs.get('host');
    if (proto && host) return `${proto}://${host}`;
  }
  const host = firstValue(request.headers.get('x-forwarded-host')) ?? request.headers.get('host') ?? url.host;
  const proto = firstValue(request.headers.get('x-forwarded-proto')) ?? url.protocol.replace(/:$/, '');
  return `${proto}://${host}`;
}

/** Refuses a state-changing request that a browser sent from another site (403). */
export function checkOrigin(request: ApiRequest): void {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  const origin = request.headers.get('origin');
  if (origin === null) return;
  const allowed = configuredOrigins();
  if (allowed.includes('*') || allowed.includes(origin) || origin === requestOrigin(request)) return;
  throw new HttpError(403, `Forbidden: origin not allowed (${origin}); list it in STATEHOUSE_ALLOWED_ORIGINS to allow it.`);
}
