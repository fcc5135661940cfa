/** A list page's query string as links carry it; undefined or empty values are left out. */
export type ListQuery = Record<string, string | number | undefined>;

/**
 * The URL of `pathname` with `query` changed by `changes` (an undefined
 * change removes the parameter). Defaults are passed as undefined so that
 * links stay short: `/apps/x?page=2`, not `/apps/x?page=2&size=50&sort=recent`.
 */
export function listHref(pathname: string, query: ListQuery, changes: ListQuery = {}): string {
  const merged: ListQuery = { ...query, ...changes };
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(merged)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${pathname}?${search}` : pathname;
}
