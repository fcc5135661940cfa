import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { authConfig } from './config';
import { signInPath } from './paths';
import { getAccountStore } from './services';
import { forbidden, unauthenticated } from './auth/errors';
import { authenticate, credentialsOf, LOCAL_PRINCIPAL, SESSION_COOKIE, type Principal } from './auth/principal';
import { hasRole, type Role } from './auth/roles';

/** Who is behind the current page render or server action; null when nobody signed in. One lookup per request. */
export const currentPrincipal = cache(async (): Promise<Principal | null> => {
  const config = authConfig();
  // Local mode asks nothing of the request (so this also works outside one, e.g. in tests).
  if (config.mode === 'local') return LOCAL_PRINCIPAL;
  const [headerList, cookieStore] = await Promise.all([headers(), cookies()]);
  const credentials = credentialsOf(headerList, cookieStore.get(SESSION_COOKIE)?.value, config);
  return authenticate(credentials, await getAccountStore(), config);
});

/** For server actions: the principal, or an AuthError (the action turns it into a value). */
export async function requireRole(role: Role): Promise<Principal> {
  const principal = await currentPrincipal();
  if (!principal) throw unauthenticated();
  if (!hasRole(principal.role, role)) throw forbidden(role);
  return principal;
}

/**
 * For page reads: the principal, or a redirect to the sign-in page that
 * comes back to `returnTo` (by default this page: proxy.ts passes its path). The proxy only looks
 * for a credential; this is where it is checked.
 */
export async function requireViewer(returnTo?: string): Promise<Principal> {
  const principal = await currentPrincipal();
  if (!principal) {
    returnTo ??= (await headers()).get('x-request-path') ?? undefined;
    redirect(signInPath(returnTo));
  }
  return principal;
}
