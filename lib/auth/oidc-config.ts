import { isLoopbackHost } from './loopback';
import { hasRole, isRole, type Role } from './roles';

/** Single sign-on through an OpenID provider (authorization code with PKCE), beside local accounts. */
export interface OidcConfig {
  issuer: URL;
  clientId: string;
  /** Unset for a public client (PKCE alone). */
  clientSecret: string | undefined;
  /** Where the provider sends people back; by default `/sign-in/oidc/callback` on the address they used. */
  redirectUrl: URL | undefined;
  scopes: string;
  /** The claim holding the person's groups (a string or an array of strings). */
  roleClaim: string;
  /** The claim that names the account (and so every write in the history). */
  nameClaim: string;
  /** Group → role; a person gets the highest role of their groups, none without a listed group. */
  groupRoles: ReadonlyMap<string, Role>;
  /** What the sign-in button says. */
  label: string;
  /** http:// is allowed for an issuer on this machine only (tests, development). */
  allowHttp: boolean;
}

export interface OidcSettings {
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  redirectUrl?: string;
  scopes?: string;
  roleClaim?: string;
  nameClaim?: string;
  roles?: string;
  label?: string;
}

const DEFAULT_SCOPES = 'openid profile email groups';

function url(name: string, value: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new Error(`${name} must be a URL, not "${value}".`);
  }
}

/** STATEHOUSE_OIDC_ROLES: `group=role` pairs separated by commas, e.g. `statehouse-admins=admin,helpdesk=support`. */
export function parseGroupRoles(value: string): Map<string, Role> {
  const roles = new Map<string, Role>();
  for (const pair of value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const at = pair.lastIndexOf('=');
    const group = pair.slice(0, at).trim();
    const role = pair.slice(at + 1).trim();
    if (at <= 0 || !isRole(role)) {
      throw new Error(`STATEHOUSE_OIDC_ROLES: "${pair}" is not group=role with role viewer, support or admin.`);
    }
    roles.set(group, role);
  }
  return roles;
}

/** The OpenID settings, or null when STATEHOUSE_OIDC_ISSUER is unset; throws on settings that cannot work. */
export function parseOidcConfig(settings: OidcSettings): OidcConfig | null {
  if (!settings.issuer) return null;
  const issuer = url('STATEHOUSE_OIDC_ISSUER', settings.issuer);
  if (!settings.clientId) throw new Error('STATEHOUSE_OIDC_CLIENT_ID is required with STATEHOUSE_OIDC_ISSUER.');
  if (!settings.roles) throw new Error('STATEHOUSE_OIDC_ROLES is required with STATEHOUSE_OIDC_ISSUER: nobody could sign in without it.');
  const allowHttp = isLoopbackHost(issuer.hostname.replace(/^\[(.*)\]$/, '$1'));
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && allowHttp)) {
    throw new Error(`STATEHOUSE_OIDC_ISSUER must be https:// (http:// only on this machine), not "${settings.issuer}".`);
  }
  const scopes = settings.scopes ?? DEFAULT_SCOPES;
  if (!scopes.split(/\s+/).includes('openid')) throw new Error(`STATEHOUSE_OIDC_SCOPES must include openid, not "${scopes}".`);
  return {
    issuer,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    redirectUrl: settings.redirectUrl ? url('STATEHOUSE_OIDC_REDIRECT_URL', settings.redirectUrl) : undefined,
    scopes,
    roleClaim: settings.roleClaim ?? 'groups',
    nameClaim: settings.nameClaim ?? 'preferred_username',
    groupRoles: parseGroupRoles(settings.roles),
    label: settings.label ?? 'single sign-on',
    allowHttp,
  };
}

/** The highest role any of the person's groups maps to; null when none does (no access). */
export function roleFromClaims(config: Pick<OidcConfig, 'roleClaim' | 'groupRoles'>, claims: Record<string, unknown>): Role | null {
  const value = claims[config.roleClaim];
  const groups = (Array.isArray(value) ? value : [value]).filter((group): group is string => typeof group === 'string');
  let best: Role | null = null;
  for (const group of groups) {
    const role = config.groupRoles.get(group);
    if (role && (best === null || hasRole(role, best))) best = role;
  }
  return best;
}
