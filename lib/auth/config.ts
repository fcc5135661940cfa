import { providerOf, type Provider } from '../db/url';
import { parseTrustedProxies, type TrustedProxies } from './client-address';
import { isLoopbackHost } from './loopback';
import { parseOidcConfig, type OidcConfig, type OidcSettings } from './oidc-config';

export { isLoopbackHost } from './loopback';

/**
 * local: no sign-in, one local operator (the embedded SQLite default, only
 * reachable from this machine). protected: every page, server action and API
 * route needs an account.
 */
export type AccessMode = 'local' | 'protected';

export interface AuthConfig {
  mode: AccessMode;
  /** Why this mode, in words an operator can act on (printed at start and on the sign-in page). */
  reason: string;
  /** Header a trusted reverse proxy sets to the signed-in account's name (single sign-on); null when off. */
  trustedHeader: string | null;
  sessionLifetimeSeconds: number;
  /** Reverse proxies whose X-Forwarded-For names the client (lib/auth/client-address.ts); empty by default. */
  trustedProxies: TrustedProxies;
  /** Single sign-on through an OpenID provider; null when not configured. */
  oidc: OidcConfig | null;
}

export interface AuthSettings {
  /** STATEHOUSE_AUTH: "local", "protected" or unset. */
  auth?: string;
  /** STATEHOUSE_HOST: the address the server listens on, set by `npm start` / `npm run dev` / `npm run demo`. */
  host?: string;
  databaseUrl: string;
  /** STATEHOUSE_TRUSTED_HEADER, e.g. X-Forwarded-User. */
  trustedHeader?: string;
  /** STATEHOUSE_SESSION_HOURS */
  sessionHours?: string;
  /** STATEHOUSE_TRUSTED_PROXIES: addresses and CIDR ranges. */
  trustedProxies?: string;
  /** STATEHOUSE_OIDC_* */
  oidc?: OidcSettings;
}

const DEFAULT_SESSION_HOURS = 12;

/** Why local mode is not possible here, or null when it is. */
function localRefusal(provider: Provider, host: string | undefined): string | null {
  if (provider === 'postgresql') return 'the database is PostgreSQL';
  if (host === undefined || host === '') {
    return 'the listening address is unknown (npm start, npm run dev and npm run demo listen on 127.0.0.1 and say so)';
  }
  if (!isLoopbackHost(host)) return `the server listens on ${host}, not only on this machine`;
  return null;
}

export class AuthConfigError extends Error {
  override name = 'AuthConfigError';
}

export function resolveAuthConfig(settings: AuthSettings): AuthConfig {
  const requested = settings.auth?.trim().toLowerCase() || undefined;
  if (requested !== undefined && requested !== 'local' && requested !== 'protected') {
    throw new AuthConfigError(`STATEHOUSE_AUTH must be "local" or "protected", not "${settings.auth}".`);
  }
  const hours = settings.sessionHours?.trim() ? Number(settings.sessionHours) : DEFAULT_SESSION_HOURS;
  if (!Number.isFinite(hours) || hours <= 0 || hours > 24 * 365) {
    throw new AuthConfigError(`STATEHOUSE_SESSION_HOURS must be a number of hours from 0 to 8760, not "${settings.sessionHours}".`);
  }
  const header = settings.trustedHeader?.trim() || null;
  if (header !== null && !/^[A-Za-z0-9-]+$/.test(header)) {
    throw new AuthConfigError(`STATEHOUSE_TRUSTED_HEADER must be a header name such as X-Forwarded-User, not "${header}".`);
  }
  let trustedProxies: TrustedProxies;
  try {
    trustedProxies = parseTrustedProxies(settings.trustedProxies);
  } catch (error) {
    throw new AuthConfigError(`STATEHOUSE_TRUSTED_PROXIES: ${error instanceof Error ? error.message : String(error)}`);
  }
  let oidc: OidcConfig | null;
  try {
    oidc = parseOidcConfig(settings.oidc ?? {});
  } catch (error) {
    throw new AuthConfigError(error instanceof Error ? error.message : String(error));
  }
  const common = { trustedHeader: header?.toLowerCase() ?? null, sessionLifetimeSeconds: Math.round(hours * 3600), trustedProxies, oidc };

  const refusal = localRefusal(providerOf(settings.databaseUrl), settings.host?.trim());
  if (requested === 'protected') return { mode: 'protected', reason: 'protected (STATEHOUSE_AUTH=protected)', ...common };
  if (refusal) {
    const ignored = requested === 'local' ? ' (STATEHOUSE_AUTH=local is ignored)' : '';
    return { mode: 'protected', reason: `protected because ${refusal}${ignored}`, ...common };
  }
  return { mode: 'local', reason: 'local: embedded SQLite database, listening on this machine only', ...common };
}
