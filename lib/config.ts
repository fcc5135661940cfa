import { resolveAuthConfig, type AuthConfig } from './auth/config';
import { DEFAULT_DATABASE_URL } from './db/url';

/** The database this process serves: DATABASE_URL, else the embedded SQLite file. */
export function databaseUrl(): string {
  return process.env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
}

/** Local or protected access, from the environment (see lib/auth/config.ts). */
export function authConfig(): AuthConfig {
  return resolveAuthConfig({
    auth: process.env.STATEHOUSE_AUTH,
    host: process.env.STATEHOUSE_HOST,
    databaseUrl: databaseUrl(),
    trustedHeader: process.env.STATEHOUSE_TRUSTED_HEADER,
    sessionHours: process.env.STATEHOUSE_SESSION_HOURS,
  });
}
