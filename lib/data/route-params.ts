import { idSchema } from '../validation/schemas';

/**
 * An app, user or session id from a dashboard page's URL segment, or null
 * when the segment cannot be one (malformed escape, empty, too long, control
 * characters): such a page does not exist.
 *
 * Unlike route handlers and generateMetadata, App Router pages and layouts
 * receive their params still percent-encoded (`sp%20ace%C3%BC` for the app
 * "sp aceü"), so they are decoded here, exactly once (`a%2520b` names the
 * app "a%20b").
 */
export function routeId(segment: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return null;
  }
  const parsed = idSchema.safeParse(decoded);
  return parsed.success ? parsed.data : null;
}

/**
 * The same id for `generateMetadata`, whose params arrive already decoded
 * (Next 16 decodes them for metadata but not for the page): decoding again
 * would turn the app "a%41" into "aA". Only for display (titles).
 */
export function metadataId(segment: string): string {
  return segment;
}
