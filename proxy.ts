// Runs before every page and API request (Next 16's proxy, Node.js runtime).
// It does the cheap, early parts of access control; every route handler,
// page read and server action still checks the principal itself (lib/auth).
import { NextResponse, type NextRequest } from 'next/server';
import { isLoopbackHost } from '@/lib/auth/config';
import { authenticate, credentialsOf, hasAnyCredential, SESSION_COOKIE, type Credentials } from '@/lib/auth/principal';
import type { AuthConfig } from '@/lib/auth/config';
import { authConfig } from '@/lib/config';
import { getAccountStore, STORE_HEADER } from '@/lib/services';
import {
  ALLOW_ANY_ROUTE,
  API_CACHE_CONTROL,
  hasBody,
  hasLargeBody,
  hasMalformedEncoding,
  isKnownMethod,
  MAX_ANONYMOUS_BODY_BYTES,
} from '@/lib/http/early-guards';
import { isDatabaseUnavailable } from '@/lib/db/unavailable';
import { checkOrigin } from '@/lib/http/origin';
import { HttpError } from '@/lib/http/problem';
import { OIDC_CALLBACK_PATH, OIDC_SIGN_IN_PATH, OPERATIONS_PATHS, SIGN_IN_PATH, storeOfPath } from '@/lib/paths';

const PUBLIC_PATHS = [SIGN_IN_PATH, OIDC_SIGN_IN_PATH, OIDC_CALLBACK_PATH];

function isApi(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

function detail(status: number, message: string, headers?: HeadersInit): NextResponse {
  return NextResponse.json({ detail: message }, { status, headers: { 'Cache-Control': API_CACHE_CONTROL, ...headers } });
}

/**
 * An early refusal. When the request has a body the connection is closed
 * after the answer, so the rest of that body is never received (Next would
 * otherwise keep buffering it).
 */
function refuse(request: NextRequest, status: number, message: string, headers?: Record<string, string>): NextResponse {
  return detail(status, message, hasBody(request.headers) ? { ...headers, Connection: 'close' } : headers);
}

/** Whether the credentials prove an account (checked here only for large bodies; routes check every request). */
async function provesSomeone(credentials: Credentials, config: AuthConfig): Promise<boolean> {
  return (await authenticate(credentials, await getAccountStore(), config)) !== null;
}

/** The host name the client addressed, without port or IPv6 brackets. */
function addressedHost(request: NextRequest): string {
  const host = request.headers.get('host') ?? request.nextUrl.host;
  return host.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
}

/**
 * A Content-Security-Policy with a fresh nonce: Next puts the nonce on its
 * own scripts when it finds the policy on the request, and pages read it
 * from `x-nonce` for theirs. No inline script runs without it. Styles may be
 * inline (React's style attributes); scripts may not.
 */
function contentSecurityPolicy(nonce: string): string {
  const dev = process.env.NODE_ENV === 'development';
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const { pathname, search } = request.nextUrl;
  if (!isKnownMethod(request.method)) return refuse(request, 405, 'Method Not Allowed', { Allow: ALLOW_ANY_ROUTE });
  if (hasMalformedEncoding(pathname))
    return refuse(request, 400, 'Malformed percent-encoding in the path: each % must start a UTF-8 byte as %XX.');
  // Probes and scrapers address the server by whatever name their platform uses, without a sign-in;
  // these routes say no more than up/down, and /metrics checks its own token.
  if (OPERATIONS_PATHS.includes(pathname)) return NextResponse.next();
  let config;
  try {
    config = authConfig();
  } catch (error) {
    // A misconfiguration must not fall back to an open console.
    return detail(500, error instanceof Error ? error.message : String(error));
  }

  if (config.mode === 'local') {
    // Local mode trusts whoever reaches it on this machine; a web page's
    // script that reaches it through DNS rebinding addresses another name.
    const host = addressedHost(request);
    if (!isLoopbackHost(host)) {
      return refuse(
        request,
        403,
        `This console runs in local mode and only answers requests addressed to localhost, not ${host}. Set STATEHOUSE_AUTH=protected to serve it under other names.`,
      );
    }
  } else {
    const credentials = credentialsOf(request.headers, request.cookies.get(SESSION_COOKIE)?.value, config);
    const anonymous = !hasAnyCredential(credentials);
    if (anonymous && !PUBLIC_PATHS.includes(pathname)) {
      if (isApi(pathname)) {
        return refuse(request, 401, 'Sign-in required: send an API token (Authorization: Bearer <token>) or a session cookie.', {
          'WWW-Authenticate': 'Bearer realm="statehouse"',
        });
      }
      const signIn = new URL(SIGN_IN_PATH, request.url);
      signIn.searchParams.set('next', pathname + search);
      const redirect = NextResponse.redirect(signIn);
      if (hasBody(request.headers)) redirect.headers.set('Connection', 'close');
      return redirect;
    }
    if (hasLargeBody(request.headers)) {
      // Only a proven principal may make the server hold a large body.
      let proven = false;
      try {
        proven = !anonymous && (await provesSomeone(credentials, config));
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        return refuse(request, 503, 'Database unavailable: cannot check the credentials.', { 'Retry-After': '5' });
      }
      if (!proven) {
        return refuse(
          request,
          413,
          `Request body too large: at most ${MAX_ANONYMOUS_BODY_BYTES} bytes (with Content-Length) before signing in.`,
        );
      }
    }
  }

  if (!isApi(pathname)) {
    // Server actions: Next refuses another origin with a logged 500; this is the same check as the API's, answered as a 403.
    try {
      checkOrigin(request);
    } catch (error) {
      if (error instanceof HttpError) return refuse(request, error.status, error.detail);
      throw error;
    }
  }

  if (isApi(pathname)) {
    const response = NextResponse.next();
    response.headers.set('Cache-Control', API_CACHE_CONTROL);
    return response;
  }
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const policy = contentSecurityPolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('content-security-policy', policy);
  // Where a page render that finds its credential invalid sends the person back to after signing in.
  requestHeaders.set('x-request-path', pathname + search);
  // Which store the page (or a server action posted from it) is for: only ever the one its path names.
  requestHeaders.delete(STORE_HEADER);
  const store = storeOfPath(pathname);
  if (store) requestHeaders.set(STORE_HEADER, encodeURIComponent(store));
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', policy);
  return response;
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
