// The route template of an API request, for metric labels: path parameters
// become `:name`, so every session's requests count under one series.

/** Each collection segment of the API's paths and the parameter that follows it (lib/http/params.ts). */
const PARAMETER_AFTER: Record<string, string> = { apps: 'app', users: 'user', sessions: 'id', events: 'seq', notes: 'note' };

/**
 * `/api/apps/a/users/u/sessions/s/events` with params {app, user, id} is
 * `/api/apps/:app/users/:user/sessions/:id/events`. A segment after a
 * collection becomes its parameter only when the route has that parameter,
 * and is skipped afterwards, so ids that spell a collection's name (an app
 * called `users`) cannot shift the template.
 */
export function routeTemplate(pathname: string, params: object | undefined): string {
  const names = new Set(Object.keys(params ?? {}));
  const segments = pathname.split('/');
  for (let index = 0; index < segments.length - 1; index++) {
    const parameter = PARAMETER_AFTER[segments[index] ?? ''];
    if (parameter && names.has(parameter)) {
      segments[index + 1] = `:${parameter}`;
      names.delete(parameter);
      index++;
    }
  }
  return segments.join('/');
}

/** Each collection segment of the console's page paths and the parameter that follows it. */
const PAGE_PARAMETER_AFTER: Record<string, string> = { apps: 'app', users: 'user', sessions: 'session', stores: 'store' };

/**
 * The route template of a console page, for metric labels: `/apps/a/users/u`
 * is `/apps/:app/users/:user`. A 404 is `(not found)`, so made-up paths add
 * no series.
 */
export function pageTemplate(pathname: string, status: number): string {
  if (status === 404) return '(not found)';
  const segments = pathname.split('/');
  for (let index = 1; index < segments.length - 1; index++) {
    const parameter = PAGE_PARAMETER_AFTER[segments[index] ?? ''];
    if (parameter) {
      segments[index + 1] = `:${parameter}`;
      index++;
    }
  }
  return segments.join('/') || '/';
}
