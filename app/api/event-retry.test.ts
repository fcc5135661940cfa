// A client that timed out retries its append: the same event id with the
// same event is answered with the stored event and the revision its append
// produced (never stored twice); another event under a used id is a 409. On
// both databases, guarded (If-Match) or not, one at a time or all at once.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '@/lib/testing/http';
import { testProviders } from '@/lib/testing/databases';
import { useTestDatabase } from '@/lib/testing/use-test-database';
import * as events from './apps/[app]/users/[user]/sessions/[id]/events/route';
import * as sessions from './apps/[app]/users/[user]/sessions/route';

const providers = await testProviders();

describe.each(providers)('retried appends on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });
  const params = { app: `retry-${provider}`, user: 'u', id: 's' };
  const ref = { appName: params.app, userId: 'u', sessionId: 's' };
  const post = (body: object, headers: Record<string, string> = {}) => call(events.POST, 'POST', { params, body, headers });
  const stored = async (id: string) =>
    (await database.service.listEvents(ref, { limit: 1000 })).items.filter((item) => item.event.id === id);

  beforeAll(async () => {
    await database.service.createSession({ ...ref, state: {} });
  });

  it('answers a retry with the stored event and its revision, storing it once', async () => {
    const event = { id: 'e-once', author: 'agent', timestamp: 1_700_000_000.5, actions: { stateDelta: { n: 1, 'user:k': 'v' } } };
    const first = await post(event);
    expect(first.status, first.text).toBe(200);
    await post({ author: 'agent', actions: { stateDelta: { other: true } } });
    const retry = await post(event);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.json).toEqual(first.json);
    expect(retry.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await stored('e-once')).toHaveLength(1);
    // The history too: one change of user:k.
    expect((await database.service.getKeyHistory({ appName: ref.appName, scope: 'user', userId: 'u', key: 'k' })).total).toBe(1);
  });

  it('answers a guarded retry (same If-Match) the same way, not as stale', async () => {
    const summary = await database.service.getSessionSummary(ref);
    const ifMatch = { 'if-match': `"${summary?.revision}"` };
    const event = { id: 'e-guarded', author: 'agent', timestamp: 1_700_000_001, content: { role: 'model', parts: [{ text: 'hi' }] } };
    const first = await post(event, ifMatch);
    expect(first.status, first.text).toBe(200);
    const retry = await post(event, ifMatch);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.json).toEqual(first.json);
    expect(retry.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await stored('e-guarded')).toHaveLength(1);
    // A different event on that stale revision is still refused as stale.
    expect((await post({ author: 'agent' }, ifMatch)).status).toBe(409);
  });

  it('matches a retry whose timestamp the server filled in', async () => {
    const event = { id: 'e-untimed', author: 'agent', actions: { stateDelta: { t: 1 } } };
    const first = await post(event);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const retry = await post(event);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.json).toEqual(first.json);
    expect(await stored('e-untimed')).toHaveLength(1);
  });

  it('refuses a different event under a used id with 409, storing nothing', async () => {
    const event = { id: 'e-taken', author: 'agent', timestamp: 1_700_000_002, actions: { stateDelta: { x: 1 } } };
    expect((await post(event)).status).toBe(200);
    const before = await database.service.getSessionSummary(ref);
    const other = await post({ ...event, actions: { stateDelta: { x: 2 } } });
    expect(other).toMatchObject({
      status: 409,
      json: { detail: 'Event id e-taken is already used in this session by a different event.' },
    });
    expect(await database.service.getSessionSummary(ref)).toEqual(before);
    expect((await database.service.getSession(ref))?.state.x).toBe(1);
  });

  it('stores one of many identical appends sent at once, and answers each with it', async () => {
    const event = { id: 'e-burst', author: 'agent', timestamp: 1_700_000_003, actions: { stateDelta: { burst: 1 } } };
    const results = await Promise.all(Array.from({ length: 8 }, () => post(event)));
    for (const result of results) {
      expect(result.status, result.text).toBe(200);
      expect(result.json).toEqual(results[0]?.json);
    }
    expect(new Set(results.map((result) => result.headers.get('etag'))).size).toBe(1);
    expect(await stored('e-burst')).toHaveLength(1);
  });

  it('refuses a new session whose events repeat an id', async () => {
    const event = { id: 'dup', author: 'agent' };
    const created = await call(sessions.POST, 'POST', {
      params: { app: params.app, user: 'u' },
      body: { sessionId: 'dups', events: [event, event] },
    });
    expect(created).toMatchObject({ status: 400, json: { detail: 'events: id dup appears twice; event ids are unique in a session.' } });
    expect(await database.service.getSessionSummary({ ...ref, sessionId: 'dups' })).toBeNull();
  });
});
