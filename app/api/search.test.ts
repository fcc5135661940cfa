// The search doors: /api/search (the header search) and the state filters of
// /api/apps/:app/sessions, against SQLite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { call, detailOf } from '@/lib/testing/http';
import { testProviders } from '@/lib/testing/databases';
import { uniqueName } from '@/lib/testing/factories';
import { useTestDatabase } from '@/lib/testing/use-test-database';
import * as appSessions from './apps/[app]/sessions/route';
import * as search from './search/route';

const providers = await testProviders();

describe.each(providers)('search routes on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });

  it('finds apps by name and sessions and users by state values, naming what matched', async () => {
    const app = uniqueName('helpdesk');
    await database.service.createSession({ appName: app, userId: 'u1', sessionId: 's1', state: { customer: 'Carol Nguyen' } });
    await database.service.editState({
      appName: app,
      scope: 'user',
      userId: 'u2',
      changes: { phone: '+1 555 0100' },
      actor: 't',
      reason: 't',
    });

    const carol = await call(search.GET, 'GET', { query: 'q=carol%20nguyen' });
    expect(carol.status).toBe(200);
    expect(carol.json).toMatchObject({ hits: [{ kind: 'session', appName: app, userId: 'u1', sessionId: 's1', matched: 'customer' }] });
    const phone = await call(search.GET, 'GET', { query: `q=555%200100&app=${app}` });
    expect(phone.json).toMatchObject({ hits: [{ kind: 'user', userId: 'u2', matched: 'user:phone' }] });
    const byName = await call(search.GET, 'GET', { query: `q=${app}` });
    expect(byName.json).toMatchObject({ hits: [{ kind: 'app', appName: app, matched: 'name' }] });
    expect((await call(search.GET, 'GET', { query: 'q=ab' })).json).toEqual({ hits: [] });
    expect((await call(search.GET, 'GET', {})).status).toBe(400);
    expect((await call(search.GET, 'GET', { query: 'q=abc&limit=0' })).status).toBe(400);
  });

  it('filters sessions with operators and nested paths; a bad filter is a 400', async () => {
    const app = uniqueName('helpdesk');
    for (const [id, topic, age] of [
      ['a', 'refund', 31],
      ['b', 'refund-late', 25],
      ['c', 'shipping', 40],
    ] as const) {
      await database.service.createSession({ appName: app, userId: `u-${id}`, sessionId: id, state: { topic, profile: { age } } });
    }
    const ids = async (query: string) => {
      const result = await call(appSessions.GET, 'GET', { params: { app }, query });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      return (result.json as { items: { id: string }[] }).items.map((item) => item.id).sort();
    };
    // Without op, stateKey and stateValue keep their exact meaning; with op=contains, part of a value finds it.
    expect(await ids('stateKey=topic&stateValue=refu')).toEqual([]);
    expect(await ids('stateKey=topic&op=contains&stateValue=refu')).toEqual(['a', 'b']);
    expect(await ids(`filters=${encodeURIComponent(JSON.stringify([{ key: 'profile.age', op: '>', value: 30 }]))}`)).toEqual(['a', 'c']);
    expect(
      await ids(
        `stateKey=topic&op=contains&stateValue=refu&filters=${encodeURIComponent(JSON.stringify([{ key: 'profile.age', op: '<', value: 30 }]))}`,
      ),
    ).toEqual(['b']);
    const bad = await call(appSessions.GET, 'GET', { params: { app }, query: 'filters=[{"key":"x","op":"~"}]' });
    expect(bad.status).toBe(400);
    expect(detailOf(bad)).toContain('filters');
    expect((await call(appSessions.GET, 'GET', { params: { app }, query: 'op=contains' })).status).toBe(400);
  });
});
