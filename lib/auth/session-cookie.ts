import { isLoopbackHost } from './loopback';

/**
 * Whether the sign-in cookie can be Secure: over HTTPS (also behind a
 * TLS-terminating proxy) and on localhost, which browsers treat as secure.
 * Plain HTTP to another host would silently drop a Secure cookie.
 */
export function cookieIsSecure(headers: Headers): boolean {
  const proto = headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  const host = (headers.get('x-forwarded-host') ?? headers.get('host') ?? '').replace(/:\d+$/, '');
  return proto === 'https' || isLoopbackHost(host);
}
