// The compare page's query string (lib/paths.ts comparePath): the first side,
// and the second when chosen. People type and paste these URLs, so a missing
// or malformed second side is "not chosen yet", not an error.
import type { CompareSide } from '../paths';
import { idSchema } from '../validation/schemas';
import type { SearchParams } from './list-params';

export interface CompareQuery {
  left: CompareSide;
  /** Null until a second side is chosen (or when it names a session while the first names none, or the other way round). */
  right: CompareSide | null;
}

function id(params: SearchParams, name: string): string | undefined {
  const raw = params[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return undefined;
  const parsed = idSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The two sides, or null when the first side is not a valid app and user. */
export function compareQueryOf(params: SearchParams): CompareQuery | null {
  const appName = id(params, 'app');
  const userId = id(params, 'user');
  if (appName === undefined || userId === undefined) return null;
  const sessionId = id(params, 'session');
  const left: CompareSide = sessionId === undefined ? { appName, userId } : { appName, userId, sessionId };
  const rightApp = id(params, 'app2') ?? appName;
  const rightUser = id(params, 'user2') ?? userId;
  const rightSession = id(params, 'session2');
  const sameKind = (sessionId === undefined) === (rightSession === undefined);
  const named = rightSession !== undefined || params.app2 !== undefined || params.user2 !== undefined;
  const right: CompareSide | null =
    !named || !sameKind
      ? null
      : rightSession === undefined
        ? { appName: rightApp, userId: rightUser }
        : { appName: rightApp, userId: rightUser, sessionId: rightSession };
  return { left, right };
}
