/**
 * Where to go after signing in: only a path on this site. `//evil.example`
 * and `/\evil.example` are protocol-relative URLs to another host, and
 * anything with a scheme is another site: both become the apps page.
 */
export function safeReturnPath(value: unknown, fallback = '/apps'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  if (/[\u0000-\u001f]/.test(value) || value.length > 2000) return fallback;
  return value;
}
