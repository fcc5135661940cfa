import { idSchema } from '../validation/schemas';

/**
 * An app or user id from a dashboard URL segment (Next decodes it once), or
 * null when it cannot be one (empty, too long, control characters): such a
 * page does not exist.
 */
export function routeId(segment: string): string | null {
  const parsed = idSchema.safeParse(segment);
  return parsed.success ? parsed.data : null;
}
