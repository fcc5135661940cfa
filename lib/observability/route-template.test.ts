// The metrics' route templates agree with the API table for every route,
// whatever the ids spell: ids named like the API's own collections included.
import { describe, expect, it } from 'vitest';
import { API, type ApiPattern } from '@/lib/http/api/table';
import { routeTemplate } from './route-template';

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
