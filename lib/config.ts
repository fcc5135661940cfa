import { parseAgentServers, type AgentServerConfig } from './agent-server/config';
import { resolveAuthConfig, type AuthConfig } from './auth/config';
import { DEFAULT_DATABASE_URL } from './db/url';
import { env, type Env } from './env';

/** The database this process serves: DATABASE_URL, else the embedded SQLite file. */
export function databaseUrl(): string {
  return env().DATABASE_URL ?? DEFAULT_DATABASE_URL;
}

let resolvedAuth: { settings: Env; config: AuthConfig } | undefined;

/**
 * Local or protected access, from the environment (see lib/auth/config.ts).
 * Resolved again only when the environment changed: every API request asks
 * two or three times, and resolving builds the trusted proxies' address list.
 */
export function authConfig(): AuthConfig {
  const settings = env();
  if (resolvedAuth?.settings !== settings) resolvedAuth = { settings, config: resolveAuthSettings(settings) };
  return resolvedAuth.config;
}

function resolveAuthSettings(settings: Env): AuthConfig {
  return resolveAuthConfig({
    auth: settings.STATEHOUSE_AUTH,
    host: settings.STATEHOUSE_HOST,
    databaseUrl: databaseUrl(),
    trustedHeader: settings.STATEHOUSE_TRUSTED_HEADER,
    sessionHours: settings.STATEHOUSE_SESSION_HOURS,
    trustedProxies: settings.STATEHOUSE_TRUSTED_PROXIES,
    oidc: {
      issuer: settings.STATEHOUSE_OIDC_ISSUER,
      clientId: settings.STATEHOUSE_OIDC_CLIENT_ID,
      clientSecret: settings.STATEHOUSE_OIDC_CLIENT_SECRET,
      redirectUrl: settings.STATEHOUSE_OIDC_REDIRECT_URL,
      scopes: settings.STATEHOUSE_OIDC_SCOPES,
      roleClaim: settings.STATEHOUSE_OIDC_ROLE_CLAIM,
      nameClaim: settings.STATEHOUSE_OIDC_NAME_CLAIM,
      roles: settings.STATEHOUSE_OIDC_ROLES,
      label: settings.STATEHOUSE_OIDC_LABEL,
    },
  });
}

/** STATEHOUSE_READ_ONLY: every write door refuses, whoever asks (sign-in and sign-out still work). */
export function isReadOnly(): boolean {
  return env().STATEHOUSE_READ_ONLY;
}

/** STATEHOUSE_NO_TEST_NAMESPACES: test kits may not mark or clear namespaces on this deployment. */
export function testNamespacesAllowed(): boolean {
  return !env().STATEHOUSE_NO_TEST_NAMESPACES;
}

/** One store to serve besides Statehouse's own database: an agent's ADK session database. */
export interface AgentStoreLocation {
  /** `agent` unless named (`staging=postgresql://...`). */
  id: string;
  /** A SQLite path or `sqlite:///` URL, or a PostgreSQL URL. */
  location: string;
}

/**
 * STATEHOUSE_STORE: the agent's session database(s) to serve instead of
 * Statehouse's own sessions; `[id=]location`, several separated by spaces.
 * The first is the one served. Statehouse's own tables (accounts, tokens,
 * the edit audit) stay in DATABASE_URL.
 */
export function agentStoreLocations(): AgentStoreLocation[] {
  const raw = env().STATEHOUSE_STORE;
  if (!raw) return [];
  return raw.split(/\s+/).map((entry, index) => {
    const named = /^([A-Za-z][\w-]{0,63})=(.+)$/.exec(entry);
    // A URL's scheme is not a name: `postgresql://...` has no `=` before its `//`.
    if (named && !named[1]?.includes(':')) return { id: named[1] ?? 'agent', location: named[2] ?? '' };
    return { id: index === 0 ? 'agent' : `agent-${index + 1}`, location: entry };
  });
}

let agentServerConfig: { raw: string | undefined; config: AgentServerConfig } | undefined;

/**
 * STATEHOUSE_AGENT_SERVERS: the agents' ADK API servers, per app and store.
 * Only these are ever called; a configuration that does not parse configures
 * none and says why (its problem), rather than stopping the console.
 */
export function agentServers(): AgentServerConfig {
  const raw = env().STATEHOUSE_AGENT_SERVERS;
  if (agentServerConfig && agentServerConfig.raw === raw) return agentServerConfig.config;
  const config = parseAgentServers(raw);
  agentServerConfig = { raw, config };
  return config;
}

/** The app `npm run demo`'s example agent writes live, or null outside the demo. */
export function demoLiveApp(): string | null {
  return env().STATEHOUSE_DEMO_LIVE_APP ?? null;
}
