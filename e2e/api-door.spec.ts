// The /api fast path in the production server: requests the API table
// answers are served by the server's door (lib/http/api-door.ts), marked
// X-Statehouse-Door: api in this run; everything else reaches Next, with the
// same statuses, headers and error bodies either way.
import { expect, test, uniqueName } from './fixtures';

const DOOR = 'x-statehouse-door';

test('the API table’s routes are served by the door, with the same answers', async ({ request }) => {
  const appName = uniqueName('door');
  const base = `/api/apps/${appName}/users/u/sessions`;

  const created = await request.post(`${base}/s1`, { data: { topic: 'door' } });
  expect(created.status()).toBe(200);
  expect(created.headers()[DOOR]).toBe('api');
  expect(created.headers()['cache-control']).toBe('no-store');
  expect(await created.json()).toMatchObject({ id: 's1', appName, userId: 'u', state: { topic: 'door' } });

  const appended = await request.post(`${base}/s1/events`, { headers: { 'if-match': '"0"' }, data: { author: 'user' } });
  expect(appended.status()).toBe(200);
  expect(appended.headers()[DOOR]).toBe('api');
  expect(appended.headers().etag).toBe('"1"');

  const stale = await request.post(`${base}/s1/events`, {
    headers: { 'if-match': '"0"' },
    data: { author: 'user' },
    failOnStatusCode: false,
  });
  expect(stale.status()).toBe(409);
  expect(stale.headers()[DOOR]).toBe('api');
  expect((await stale.json()).detail).toContain('modified in storage since it was loaded');

  const missing = await request.get(`${base}/nobody`, { failOnStatusCode: false });
  expect(missing.status()).toBe(404);
  expect(missing.headers()[DOOR]).toBe('api');
  expect((await missing.json()).detail).toMatch(/not found/i);

  const unserved = await request.put(`${base}/s1`, { data: {}, failOnStatusCode: false });
  expect(unserved.status()).toBe(405);
  expect(unserved.headers()[DOOR]).toBe('api');
  expect(unserved.headers().allow?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST']);

  const state = await request.get(`${base}/s1/state`);
  expect(state.headers()[DOOR]).toBe('api');
  expect(await state.json()).toMatchObject({ session: [{ key: 'topic', value: 'door' }], revision: 1 });

  const head = await request.head(`${base}/s1`);
  expect(head.status()).toBe(200);
  expect(await head.body()).toHaveLength(0);
});

test('large answers are compressed when the client asks, small ones never', async ({ request }) => {
  const appName = uniqueName('door-gzip');
  const base = `/api/apps/${appName}/users/u/sessions`;
  // Past COMPRESS_MIN_BYTES (64 KiB; lib/http/api-door.ts).
  await request.post(`${base}/big`, { data: { text: 'x'.repeat(100_000) } });
  const gzip = { 'accept-encoding': 'gzip' };
  const big = await request.get(`${base}/big`, { headers: gzip });
  expect(big.headers()['content-encoding']).toBe('gzip');
  expect((await big.json()).state.text).toHaveLength(100_000);
  const plain = await request.get(`${base}/big`, { headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers()['content-encoding']).toBeUndefined();
  await request.post(`${base}/small`, { data: { n: 1 } });
  const small = await request.get(`${base}/small`, { headers: gzip });
  expect(small.headers()['content-encoding']).toBeUndefined();
});

test('what the table does not have reaches Next', async ({ request }) => {
  const unknown = await request.get('/api/no-such-route', { failOnStatusCode: false });
  expect(unknown.status()).toBe(404);
  expect(unknown.headers()[DOOR]).toBeUndefined();
  expect(await unknown.json()).toEqual({ detail: 'Not Found' });
  const page = await request.get('/');
  expect(page.status()).toBe(200);
  expect(page.headers()[DOOR]).toBeUndefined();
  const healthz = await request.get('/healthz');
  expect(healthz.headers()[DOOR]).toBeUndefined();
});
