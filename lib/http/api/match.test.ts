// The table's matcher against Next's own: the same route for a path, the
// same parameters decoded exactly once, and the same refusal of malformed
// percent-encoding; and the table against the route files Next serves.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { getRouteMatcher } from 'next/dist/shared/lib/router/utils/route-matcher';
import { getRouteRegex } from 'next/dist/shared/lib/router/utils/route-regex';
import { DecodeError } from 'next/dist/shared/lib/utils';
import { describe, expect, it } from 'vitest';
import { call } from '@/lib/testing/http';
import { matchApiRoute } from './match';
import { API, API_ROUTES, type ApiPattern } from './table';

const folderOf = (pattern: string) => pattern.replace(/:(\w+)/g, '[$1]');
const nextMatchers = (Object.keys(API) as ApiPattern[]).map((pattern): { pattern: ApiPattern; match: (path: string) => unknown } => ({
  pattern,
  match: getRouteMatcher(getRouteRegex(folderOf(pattern))),
}));

/** Next's answer for a path: its most specific route's parameters, or 'malformed' for a DecodeError. */
function nextMatch(pathname: string): { pattern: ApiPattern; params: unknown } | 'malformed' | null {
  const found = nextMatchers
    .filter(({ pattern }) => pattern.split('/').length === pathname.split('/').length)
    .sort((a, b) => a.pattern.split(':').length - b.pattern.split(':').length);
  for (const { pattern, match } of found) {
    try {
      const params = match(pathname);
      if (params) return { pattern, params };
    } catch (error) {
      if (error instanceof DecodeError) return 'malformed';
      throw error;
    }
  }
  return null;
}

/** A path as the server sees it after the URL parser: dot segments resolved, the rest kept percent-encoded. */
const parsed = (path: string) => new URL(path, 'http://localhost').pathname;

const HOSTILE_IDS = [
  's1',
  'a/b',
  'a%2Fb',
  'a%252Fb',
  '..',
  '.',
  '...',
  '../s1',
  'with space',
  'tab\there',
  'Zoë',
  '日本語',
  '🦀',
  '%',
  '%zz',
  '?q=1',
  '#frag',
  'a;b',
  '\u0000',
  'invoice\u202etxt.exe',
];

describe('matchApiRoute', () => {
  it('decodes every parameter exactly once, as Next does', () => {
    for (const id of HOSTILE_IDS) {
      const segment = encodeURIComponent(id);
      for (const path of [
        `/api/apps/${segment}/state`,
        `/api/apps/app/users/${segment}/sessions/${segment}/events/7`,
        `/api/apps/${segment}/users/u/sessions/${segment}/timeline/position`,
      ]) {
        const pathname = parsed(path);
        const ours = matchApiRoute('GET', pathname);
        const next = nextMatch(pathname);
        expect(next, path).not.toBe('malformed');
        expect(ours?.pattern ?? null, path).toBe(next === null || next === 'malformed' ? null : next.pattern);
        expect(ours?.params, path).toEqual(next === null || next === 'malformed' ? undefined : next.params);
        // Only "." and ".." cannot be sent as a segment: the URL parser resolves them, for Next as for the door.
        if (id !== '.' && id !== '..') expect(Object.values(ours?.params ?? {}), path).toContain(id);
      }
    }
  });

  it('takes raw paths as Next does: encoded slashes stay in one segment, dot segments resolve, malformed encoding is a 400', async () => {
    const raw = [
      '/api/apps/a%2Fb/state',
      '/api/apps/a%252Fb/users/u%2F..%2F..%2Fx/state',
      '/api/apps/x/users/../users/u/state',
      '/api/apps/x/users/%2e%2e/state',
      '/api/apps/%2E%2E/users/u/sessions/s/fork',
      '/api/apps/x/users/u/sessions/%E6%97%A5/events/%31',
      '/api/apps/x/users/u/sessions/a%20b/meta',
      '/api/apps/x/users/u/sessions/日本/meta',
      '/api/apps/%E0%A4%A/state',
      '/api/apps/x/users/%/state',
      '/api/apps/x/users/u/sessions/%C0%AF/rewind',
    ];
    for (const path of raw) {
      const pathname = parsed(path);
      const next = nextMatch(pathname);
      const ours = matchApiRoute('POST', pathname);
      if (next === 'malformed') {
        expect(ours, path).not.toBeNull();
        const answer = await call(ours?.handler ?? (async () => new Response()), 'POST');
        expect(answer.status, path).toBe(400);
      } else {
        expect(ours?.pattern, path).toBe(next?.pattern);
        expect(ours?.params, path).toEqual(next?.params);
      }
    }
    expect(matchApiRoute('GET', parsed('/api/apps/x/users/../users/u/state'))?.params).toEqual({ app: 'x', user: 'u' });
  });

  it('prefers a static segment over a parameter and leaves unknown paths, empty segments and trailing slashes to Next', () => {
    expect(matchApiRoute('GET', '/api/apps/x/users')?.pattern).toBe('/api/apps/:app/users');
    expect(matchApiRoute('DELETE', '/api/apps/x/users/u')?.pattern).toBe('/api/apps/:app/users/:user');
    expect(matchApiRoute('GET', '/api/apps/x/users/u/sessions/s/timeline/position')?.pattern).toBe(
      '/api/apps/:app/users/:user/sessions/:id/timeline/position',
    );
    for (const path of ['/api/nothing', '/api/apps/', '/api/apps//state', '/api', '/apps/x', '/api/apps/x/state/']) {
      expect(matchApiRoute('GET', path), path).toBeNull();
    }
  });

  it('answers HEAD with GET, other methods with the route’s 405 or 204 and Allow, and leaves unknown methods to Next', async () => {
    const path = '/api/apps/x/users/u/sessions/s/events';
    expect(matchApiRoute('HEAD', path)?.handler).toBe(API['/api/apps/:app/users/:user/sessions/:id/events'].GET);
    const put = await call(matchApiRoute('PUT', path)?.handler ?? (async () => new Response()), 'PUT');
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
    const options = await call(matchApiRoute('OPTIONS', path)?.handler ?? (async () => new Response()), 'OPTIONS');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
    expect(matchApiRoute('TRACE', path)).toBeNull();
  });
});

describe('the table', () => {
  const API_DIR = join(process.cwd(), 'app');

  it('has a route file for each pattern, exporting the table’s handlers, and no route file outside it', async () => {
    for (const { method, pattern, handler } of API_ROUTES) {
      const file = join(API_DIR, folderOf(pattern), 'route.ts');
      expect(existsSync(file), file).toBe(true);
      const exports = (await import(file)) as Record<string, unknown>;
      expect(exports[method], `${method} ${pattern}`).toBe(handler);
    }
    const files = readdirSync(join(API_DIR, 'api'), { recursive: true, encoding: 'utf8' })
      // Besides the table's: the 404 catch-all, and every store's API (the same table under /api/stores/{id}).
      .filter((path) => path.endsWith('route.ts') && !path.startsWith('[...path]') && !path.startsWith('stores/'))
      .map((path) => `/api/${path.replace(/\/?route\.ts$/, '')}`.replace(/\/$/, ''));
    expect(files.sort()).toEqual(Object.keys(API).map(folderOf).sort());
  });
});
