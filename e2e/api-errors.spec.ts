// Domain errors keep their status codes in the production build, whichever
// bundle (a page or a route handler) first built the process-wide service.
import { expect, test, uniqueName } from './fixtures';

test('domain errors map to their status codes after pages have used the service', async ({ page, request, createSession }) => {
  const session = await createSession();
  const base = `/api/apps/${encodeURIComponent(session.appName)}/users/${encodeURIComponent(session.userId)}/sessions`;
  // A page render first: the service may now be the server components' copy.
  await page.goto(`/apps/${encodeURIComponent(session.appName)}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  const missing = await request.get(`${base}/${uniqueName('missing')}/events`, { failOnStatusCode: false });
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({ detail: expect.stringMatching(/^Session .+ not found\.$/) });

  const duplicate = await request.post(base, { data: { sessionId: session.id }, failOnStatusCode: false });
  expect(duplicate.status()).toBe(409);
  expect(await duplicate.json()).toEqual({ detail: `Session already exists: ${session.id}` });

  const stale = await request.post(`${base}/${encodeURIComponent(session.id)}/events`, {
    headers: { 'if-match': '"41"' },
    data: { author: 'user' },
    failOnStatusCode: false,
  });
  expect(stale.status()).toBe(409);
  expect((await stale.json()).detail).toContain('modified in storage since it was loaded');
});
