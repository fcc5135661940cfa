/** Limits of the HTTP edge; state, id and nesting limits live in lib/validation/limits.ts, shared with the actions. */
import { env } from '../env';

/** Default request body limit: large enough for a 1 MiB state value with JSON escaping to spare. */
export const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;

/** Page sizes the list routes accept (the service's own bounds). */
export const MAX_PAGE_LIMIT = 1000;

/** STATEHOUSE_MAX_BODY_BYTES when it is a positive integer, else the default (lib/env.ts warns about nonsense). */
export function maxBodyBytes(): number {
  return env().STATEHOUSE_MAX_BODY_BYTES ?? DEFAULT_MAX_BODY_BYTES;
}
