// A method a route does not serve, against the real server (Next's routing
// and proxy in front of the handlers): FastAPI's JSON 405 with Allow, as
// ADK's API server answers, not Next's empty 405.
import { expect, test } from './fixtures';

test('a method the route does not serve is a JSON 405 that says which are allowed', async ({ request, createSession }) => {
  const session = await createSession();
  const path = `/api/apps/${encodeURIComponent(session.appName)}/users/${encodeURIComponent(session.userId)}/sessions/${encodeURIComponent(session.id)}`;
  for (const [method, url, allow] of [
    ['PUT', path, 'DELETE, GET, HEAD, OPTIONS, PATCH, POST'],
    ['DELETE', '/api/list-apps', 'GET, HEAD, OPTIONS'],
    ['GET', '/api/render', 'OPTIONS, POST'],
    ['PATCH', `${path}/events`, 'GET, HEAD, OPTIONS, POST'],
  ] as const) {
    const response = await request.fetch(url, { method });
    expect(response.status(), `${method} ${url}`).toBe(405);
    expect(response.headers()['content-type']).toMatch(/^application\/json/);
    expect(response.headers().allow).toBe(allow);
    expect(await response.json()).toEqual({ detail: 'Method Not Allowed' });
  }

  const options = await request.fetch(path, { method: 'OPTIONS' });
  expect(options.status()).toBe(204);
  expect(options.headers().allow).toBe('DELETE, GET, HEAD, OPTIONS, PATCH, POST');
  // HEAD is GET without the body; an unknown path stays a 404 whatever the method.
  expect((await request.fetch(path, { method: 'HEAD' })).status()).toBe(200);
  const unknown = await request.fetch('/api/apps/x/nothing-here', { method: 'PUT' });
  expect(unknown.status()).toBe(404);
  expect(await unknown.json()).toEqual({ detail: 'Not Found' });
});
