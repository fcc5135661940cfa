import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { authConfig } from '../config';
import { getAccountStore } from '../data/service';
import { forbidden, unauthenticated } from './errors';
import { authenticate, credentialsOf, SESSION_COOKIE, type Principal } from './principal';
import { hasRole, type Role } from './roles';

/** Who is behind the current page render or server action; null when nobody signed in. One lookup per request. */
export const currentPrincipal = cache(async (): Promise<Principal | null> => {
  const config = authConfig();
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

/** For pages: the principal, or a redirect to the sign-in page that comes back to `returnTo`. */
export async function requireViewer(returnTo: string): Promise<Principal> {
  const principal = await currentPrincipal();
  if (!principal) redirect(`/sign-in?next=${encodeURIComponent(returnTo)}`);
  return principal;
}
