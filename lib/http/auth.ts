import type { ApiRequest } from './api-request';
import { APP_KEYS_WRITE, forbidden, readOnlyRefusal, unauthenticated } from '../auth/errors';
import { isWriteRequest, requiredRole, roleForStateWrite } from '../auth/policy';
import { accountActor, authenticate, credentialsOf, LOCAL_PRINCIPAL, SESSION_COOKIE, type Principal } from '../auth/principal';
import { hasRole } from '../auth/roles';
import type { AppendOptions } from '../session-service/store';
import { authConfig, isReadOnly } from '../config';
import { getAccountStore } from '../services';
import { cookieValue } from './cookie';
import { requestUrl } from './request-url';

export { cookieValue } from './cookie';

/**
 * Who sent an API request, checked against the role its method and path
 * need (lib/auth/policy.ts): 401 when nobody is proven, 403 when the role
 * falls short, or when the console is read-only and the request writes.
 * Local mode has one operator and asks nothing. `pathname`: the request's,
 * when the caller has parsed its URL already.
 */
export async function authorizeRequest(request: ApiRequest, pathname = requestUrl(request).pathname): Promise<Principal> {
  const config = authConfig();
  let principal: Principal | null = LOCAL_PRINCIPAL;
  if (config.mode !== 'local') {
    const credentials = credentialsOf(request.headers, cookieValue(request.headers.get('cookie'), SESSION_COOKIE), config);
    principal = await authenticate(credentials, await getAccountStore(), config);
    if (!principal) throw unauthenticated();
  }
  if (isReadOnly() && isWriteRequest(request.method, pathname)) throw readOnlyRefusal();
  const role = requiredRole(request.method, pathname);
  if (!hasRole(principal.role, role)) throw forbidden(role);
  return principal;
}

/**
 * A write's state needs its own role beyond the route's (app: keys need
 * admin, lib/auth/policy.ts): 403 when the principal falls short.
 */
export function authorizeStateWrite(principal: Principal, write: Parameters<typeof roleForStateWrite>[0]): void {
  const role = roleForStateWrite(write);
  if (!hasRole(principal.role, role)) throw forbidden(role, APP_KEYS_WRITE);
}

/**
 * The name a write is recorded under. In local mode, the name the caller
 * gives; signed in, the account, after the name the caller gives (a test,
 * `playwright: <file> › <title>`) when it gives one: `<claimed> (by <account>)`,
 * so the account can never be hidden.
 */
export function auditActor(principal: Principal, claimed: string | undefined): string {
  const account = accountActor(principal);
  if (account === undefined) return claimed ?? 'api';
  return claimed === undefined || claimed === account || claimed === 'api' ? account : `${claimed} (by ${account})`;
}

/** Appends by a signed-in account name it in the history of the state they change; the local operator's name their author. */
export function appendOptionsFor(principal: Principal): AppendOptions {
  const actor = accountActor(principal);
  return actor === undefined ? {} : { actor };
}
