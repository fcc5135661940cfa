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

/** Ids that passed idSchema lately: the check is a pure function of the text, and the same ids come again and again. */
const validIds = new Set<string>();
const VALID_IDS_KEPT = 4096;

/** The id in a path segment, checked by idSchema (a 400 naming `root` when it is not one). */
export function pathId(value: string, root: string): string {
  if (validIds.has(value)) return value;
  const id = parseWith(idSchema, value, root);
  if (validIds.size >= VALID_IDS_KEPT) validIds.clear();
  validIds.add(id);
  return id;
}

export function appNameOf(params: AppParams): string {
  return pathId(params.app, 'appName');
}

export function userRefOf(params: UserParams): { appName: string; userId: string } {
  return { appName: appNameOf(params), userId: pathId(params.user, 'userId') };
}

export function sessionRefOf(params: SessionParams): SessionRef {
  return { ...userRefOf(params), sessionId: pathId(params.id, 'sessionId') };
}
