// Route patterns of the API table (`/api/apps/:app/users/:user`): their
// parameters as a type, and matching a request path against them the way
// Next's router matches its folders.

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** `{ app: string; user: string }` for `/api/apps/:app/users/:user`. */
export type PatternParams<P extends string> = { [K in ParamNames<P>]: string };

export type PathParams = Readonly<Record<string, string>>;

/** What a path's match against a pattern gives: its parameters, decoded once; `malformed` when one is not valid percent-encoding. */
export type PatternMatch = { params: PathParams } | 'malformed' | null;

/**
 * Matches a request path (as the URL parser leaves it: dot segments resolved,
 * still percent-encoded) against a pattern. Static segments compare as sent;
 * a parameter is one non-empty segment, decoded exactly once (`a%2Fb` → `a/b`,
 * `a%252Fb` → `a%2Fb`), as Next decodes its dynamic segments.
 */
export function matchPattern(pattern: string, pathname: string): PatternMatch {
  return matchSegments(pattern.split('/'), pathname.split('/'));
}

/** matchPattern on a pattern and a path already split at `/` (the table splits its patterns once). */
export function matchSegments(wanted: readonly string[], given: readonly string[]): PatternMatch {
  if (wanted.length !== given.length) return null;
  let params: Record<string, string> | undefined;
  let malformed = false;
  for (let i = 0; i < wanted.length; i++) {
    const part = wanted[i] ?? '';
    const segment = given[i] ?? '';
    if (!part.startsWith(':')) {
      if (segment !== part) return null;
      continue;
    }
    if (segment === '') return null;
    params ??= {};
    try {
      params[part.slice(1)] = decodeURIComponent(segment);
    } catch {
      malformed = true;
    }
  }
  return malformed ? 'malformed' : { params: params ?? {} };
}

/** How specific a pattern is: its static segments outrank parameters at the first place they differ (Next's rule). */
export function specificity(pattern: string): string {
  return pattern
    .split('/')
    .map((part) => (part.startsWith(':') ? '0' : '1'))
    .join('');
}
