import type { AuthConfig } from './config';
import { looksLikeSecret } from './secrets';
import type { AccountStore } from './store';
import type { Role } from './roles';

/** Who is making a request, and how they proved it. */
export interface Principal {
  name: string;
  role: Role;
  via: 'local' | 'session' | 'token' | 'proxy';
}

export const SESSION_COOKIE = 'statehouse_session';

/** The one operator of local mode, as the audit trail names them. */
export const LOCAL_OPERATOR = 'local operator';

export const LOCAL_PRINCIPAL: Principal = { name: LOCAL_OPERATOR, role: 'admin', via: 'local' };

export interface Credentials {
  authorization: string | null;
  sessionCookie: string | undefined;
  /** The value of the configured trusted header, when it is configured and present. */
  proxyUser: string | null;
}

/** The account a write is recorded under; undefined for the local operator, whose writes name themselves. */
export function accountActor(principal: Principal): string | undefined {
  return principal.via === 'local' ? undefined : principal.name;
}

export function credentialsOf(headers: Pick<Headers, 'get'>, cookie: string | undefined, config: AuthConfig): Credentials {
  return {
    authorization: headers.get('authorization'),
    sessionCookie: cookie,
    proxyUser: config.trustedHeader ? headers.get(config.trustedHeader)?.trim() || null : null,
  };
}

export function hasAnyCredential(credentials: Credentials): boolean {
  return credentials.authorization !== null || Boolean(credentials.sessionCookie) || credentials.proxyUser !== null;
}

/**
 * The principal behind a request, or null when it proves nobody. A bearer
 * token, when sent, is the only credential considered: a bad one is a
 * failure even with a valid cookie beside it, so a script never runs as
 * whoever happens to be signed in.
 */
export async function authenticate(credentials: Credentials, store: AccountStore, config: AuthConfig): Promise<Principal | null> {
  if (config.mode === 'local') return LOCAL_PRINCIPAL;
  if (credentials.authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(credentials.authorization);
    const token = match?.[1];
    if (!token || !looksLikeSecret('token', token)) return null;
    const account = await store.tokenAccount(token);
    return account && { name: account.name, role: account.role, via: 'token' };
  }
  if (credentials.sessionCookie && looksLikeSecret('session', credentials.sessionCookie)) {
    const account = await store.sessionAccount(credentials.sessionCookie);
    if (account) return { name: account.name, role: account.role, via: 'session' };
  }
  if (credentials.proxyUser !== null) {
    const account = await store.findAccount(credentials.proxyUser);
    if (account && !account.disabled) return { name: account.name, role: account.role, via: 'proxy' };
  }
  return null;
}
