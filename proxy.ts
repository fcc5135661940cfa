// Runs before every page and API request (Next 16's proxy, Node.js runtime).
// It does the cheap, early parts of access control; every route handler,
// page read and server action still checks the principal itself (lib/auth).
import { NextResponse, type NextRequest } from 'next/server';
import { isLoopbackHost } from '@/lib/auth/config';
import { credentialsOf, hasAnyCredential, SESSION_COOKIE } from '@/lib/auth/principal';
import { authConfig } from '@/lib/config';

const PUBLIC_PATHS = ['/sign-in'];

function isApi(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

function detail(status: number, message: string, headers?: HeadersInit): NextResponse {
  return NextResponse.json({ detail: message }, { status, headers });
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

export function proxy(request: NextRequest): NextResponse {
  const { pathname, search } = request.nextUrl;
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
      return detail(
        403,
        `This console runs in local mode and only answers requests addressed to localhost, not ${host}. Set STATEHOUSE_AUTH=protected to serve it under other names.`,
      );
    }
  } else if (!PUBLIC_PATHS.includes(pathname)) {
    const credentials = credentialsOf(request.headers, request.cookies.get(SESSION_COOKIE)?.value, config);
    if (!hasAnyCredential(credentials)) {
      if (isApi(pathname)) {
        return detail(401, 'Sign-in required: send an API token (Authorization: Bearer <token>) or a session cookie.', {
          'WWW-Authenticate': 'Bearer realm="statehouse"',
        });
      }
      const signIn = new URL('/sign-in', request.url);
      signIn.searchParams.set('next', pathname + search);
      return NextResponse.redirect(signIn);
    }
  }

  if (isApi(pathname)) return NextResponse.next();
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const policy = contentSecurityPolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('content-security-policy', policy);
  // Where a page render that finds its credential invalid sends the person back to after signing in.
  requestHeaders.set('x-request-path', pathname + search);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', policy);
  return response;
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
