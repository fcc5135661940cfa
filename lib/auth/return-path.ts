import { APPS_PATH } from '../paths';

/** Only used to resolve a path; never contacted. */
const BASE = 'http://statehouse.invalid';
const MAX_LENGTH = 2000;

/**
 * Whether `path`, resolved the way a browser or router resolves a link on
 * this site (dot segments collapsed, `\` read as `/`), stays on this site:
 * a result starting with `//` is a protocol-relative URL to another host.
 */
function staysOnSite(path: string): URL | null {
  if (!path.startsWith('/') || path.includes('\\') || /[\u0000-\u001f\u007f]/.test(path)) return null;
  let url: URL;
  try {
    url = new URL(path, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE || url.pathname.startsWith('//')) return null;
  return url;
}

/**
 * Where to go after signing in: a path on this site, rebuilt from its
 * normalised form (non-ASCII characters percent-encoded, so it is a valid
 * Location header). The path is also checked once percent-decoded, since
 * a router may decode `%2F`, `%5C` and `%2E` before resolving dot segments;
 * anything that leaves the site either way becomes `fallback`.
 */
export function safeReturnPath(value: unknown, fallback = APPS_PATH): string {
  if (typeof value !== 'string' || value.length > MAX_LENGTH) return fallback;
  const url = staysOnSite(value);
  if (!url) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return fallback;
  }
  if (!staysOnSite(decoded)) return fallback;
  return url.pathname + url.search + url.hash;
}
