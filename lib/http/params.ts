import type { SessionRef } from '../session-service/store';
import { idSchema } from '../validation/schemas';
import { parseWith } from '../validation/issues';

/*
 * Path segments arrive decoded exactly once by Next (`a%2Fb` → `a/b`,
 * `a%252Fb` → `a%2Fb`, `%00` → NUL); they are used as they are, never decoded
 * again, and checked like any other id (so NUL and other control characters are a 400).
 */

// Type aliases, not interfaces: the route table holds them as string records.
export type AppParams = { app: string };
export type UserParams = AppParams & { user: string };
export type SessionParams = UserParams & { id: string };

export function appNameOf(params: AppParams): string {
  return parseWith(idSchema, params.app, 'appName');
}

export function userRefOf(params: UserParams): { appName: string; userId: string } {
  return { appName: appNameOf(params), userId: parseWith(idSchema, params.user, 'userId') };
}

export function sessionRefOf(params: SessionParams): SessionRef {
  return { ...userRefOf(params), sessionId: parseWith(idSchema, params.id, 'sessionId') };
}
