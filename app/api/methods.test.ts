// Every /api route answers a method it does not serve as ADK's FastAPI
// server does: 405 `{"detail":"Method Not Allowed"}` with an Allow header
// naming exactly what it serves (Next alone gives an empty 405).
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allowHeader, isGeneratedMethodHandler, ROUTE_METHODS, type ServedMethod } from '@/lib/http/methods';
import { call } from '@/lib/testing/http';

const API_DIR = dirname(fileURLToPath(import.meta.url));

const routeFiles = readdirSync(API_DIR, { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('route.ts'))
  .map((path) => join(API_DIR, path))
  .sort();

type Handler = (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;

describe('methods a route does not serve', () => {
  it('finds every route', () => {
    expect(routeFiles.length).toBeGreaterThanOrEqual(17);
  });

  for (const file of routeFiles) {
    const name = relative(API_DIR, file);
    // The catch-alls dispatch over the whole table: checked below, a path at a time.
    if (name.endsWith('[...path]/route.ts')) continue;
    it(`${name}: 405 with Allow for every other method, 204 with Allow for OPTIONS`, async () => {
      const handlers = (await import(file)) as Record<string, unknown>;
      const served = ROUTE_METHODS.filter(
        (method) => typeof handlers[method] === 'function' && !isGeneratedMethodHandler(handlers[method]),
      ) as ServedMethod[];
      expect(served.length, 'serves at least one method').toBeGreaterThan(0);
      expect(served).not.toContain('OPTIONS');
      const allow = allowHeader(served);
      for (const method of ROUTE_METHODS) {
        if (served.includes(method as ServedMethod)) continue;
        const handler = handlers[method];
        if (method === 'HEAD' && served.includes('GET')) {
          // Next answers HEAD with the GET handler.
          expect(handler, 'HEAD beside GET').toBeUndefined();
          continue;
        }
        expect(isGeneratedMethodHandler(handler), `${method} is exported`).toBe(true);
        const result = await call(handler as Handler, method, { params: {} });
        expect(result.headers.get('allow'), method).toBe(allow);
        if (method === 'OPTIONS') {
          expect(result.status).toBe(204);
          expect(result.text).toBe('');
        } else {
          expect(result.status, method).toBe(405);
          expect(result.json).toEqual({ detail: 'Method Not Allowed' });
        }
      }
    });
  }

  it('lists GET with HEAD, and OPTIONS always, sorted', () => {
    expect(allowHeader(['POST'])).toBe('OPTIONS, POST');
    expect(allowHeader(['GET', 'PATCH', 'DELETE', 'POST'])).toBe('DELETE, GET, HEAD, OPTIONS, PATCH, POST');
  });

  it('answers a store’s path with that route’s 405 or 204 and Allow, and 404 where no route is', async () => {
    const store = (await import('./stores/[store]/[...path]/route')) as unknown as Record<string, Handler>;
    const path = '/api/stores/second/list-apps';
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const result = await call(store[method] as Handler, method, { path });
      expect(result.status, method).toBe(405);
      expect(result.headers.get('allow'), method).toBe(allowHeader(['GET']));
      expect(result.json).toEqual({ detail: 'Method Not Allowed' });
    }
    const options = await call(store.OPTIONS as Handler, 'OPTIONS', { path });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe(allowHeader(['GET']));
    for (const method of ['GET', 'POST', 'OPTIONS']) {
      const result = await call(store[method] as Handler, method, { path: '/api/stores/second/no-such-route' });
      expect(result.status, method).toBe(404);
    }
  });

  it('answers 404 for every method on a path with no route', async () => {
    const unknown = (await import('./[...path]/route')) as unknown as Record<string, Handler>;
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const result = await call(unknown[method] as Handler, method);
      expect(result.status, method).toBe(404);
      expect(result.json).toEqual({ detail: 'Not Found' });
    }
  });
});
