// The metrics' route templates agree with the API table for every route,
// whatever the ids spell: ids named like the API's own collections included.
import { describe, expect, it } from 'vitest';
import { API, type ApiPattern } from '@/lib/http/api/table';
import { pageTemplate, routeTemplate } from './route-template';

const HOSTILE_IDS = ['apps', 'users', 'sessions', 'events', 'a b/c', ':app'];

describe('routeTemplate', () => {
  it.each(Object.keys(API) as ApiPattern[])('gives back %s', (pattern) => {
    for (const id of HOSTILE_IDS) {
      const params: Record<string, string> = {};
      const path = pattern
        .split('/')
        .map((segment) => {
          if (!segment.startsWith(':')) return segment;
          params[segment.slice(1)] = id;
          return encodeURIComponent(id);
        })
        .join('/');
      expect(routeTemplate(path, params)).toBe(pattern);
    }
  });
});

describe('pageTemplate', () => {
  it.each([
    ['/', 200, '/'],
    ['/apps', 200, '/apps'],
    ['/apps/shop', 200, '/apps/:app'],
    ['/apps/users/users/sessions', 200, '/apps/:app/users/:user'],
    ['/apps/a/users/u/sessions/s', 200, '/apps/:app/users/:user/sessions/:session'],
    ['/apps/a/users/u/sessions/s/compare', 200, '/apps/:app/users/:user/sessions/:session/compare'],
    ['/stores/agent/apps/a', 200, '/stores/:store/apps/:app'],
    ['/made/up/path', 404, '(not found)'],
  ])('%s (%d) is %s', (path, status, template) => {
    expect(pageTemplate(path, status)).toBe(template);
  });
});
