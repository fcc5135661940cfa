// Malformed and hostile requests get a JSON answer at the door, never Next's
// own text/plain 500 (or a logged stack): unknown methods, undecodable paths,
// off-site return paths with characters outside Latin-1, server actions from
// another origin, and API answers a cache could keep.
import { request as http } from 'node:http';
import { expect, test } from './auth-fixtures';

/** A raw request (Playwright's client refuses some methods and normalises paths). */
function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; body: string; headers: Record<string, unknown> }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const sent = http({ host: url.hostname, port: url.port, method, path, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type']), body, headers: response.headers }),
      );
    });
    sent.on('error', reject);
    sent.end();
  });
}

test('unknown methods are a JSON 405 with Allow', async ({ baseURL, protectedUrl }) => {
  for (const base of [baseURL!, protectedUrl]) {
    for (const [method, path] of [
      ['TRACE', '/api/list-apps'],
      ['TRACE', '/apps'],
      ['PROPFIND', '/api/apps'],
    ] as const) {
      const answer = await raw(base, method, path);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(JSON.parse(answer.body)).toEqual({ detail: 'Method Not Allowed' });
      expect(answer.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    }
  }
});

test('malformed percent-encoding in a path is a JSON 400', async ({ baseURL }) => {
  for (const id of ['%', '%ZZ', '%C0%AF', 'a%E0%A4%A']) {
    for (const path of [`/api/apps/${id}/users`, `/api/apps/x/users/u/sessions/${id}`, `/apps/${id}`]) {
      const answer = await raw(baseURL!, 'GET', path);
      expect(answer.status, path).toBe(400);
      expect(answer.type, path).toContain('application/json');
      expect(JSON.parse(answer.body).detail, path).toContain('Malformed percent-encoding');
    }
  }
});

test('a return path outside Latin-1 redirects, encoded', async ({ baseURL }) => {
  // Local mode: the sign-in page sends everyone on at once.
  const answer = await raw(baseURL!, 'GET', `/sign-in?next=${encodeURIComponent('/apps/日本?q=ü')}`);
  expect(answer.status).toBe(307);
  expect(answer.headers.location).toBe('/apps/%E6%97%A5%E6%9C%AC?q=%C3%BC');
});

test('API answers are never cached, errors included', async ({ request, baseURL, protectedUrl }) => {
  for (const url of [
    `${baseURL}/api/list-apps`,
    `${baseURL}/api/apps/nope/users/u/sessions/s`,
    `${baseURL}/api/nothing-here`,
    `${protectedUrl}/api/list-apps`,
  ]) {
    const answer = await request.get(url, { failOnStatusCode: false });
    expect(answer.headers()['cache-control'], url).toBe('no-store');
  }
});
