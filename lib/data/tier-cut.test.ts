// Walk-through item 1 (issue 24): the user page sent a 1.9 MB user: value
// whole (a 1,958,322-byte page, where the session page cut the same to
// 92,950 bytes). The user and app pages' tiers are cut as the session page's
// are, each cut naming the route that answers with the whole value.
import { describe, expect, it } from 'vitest';
import { call } from '../testing/http';
import { useTestDatabase } from '../testing/use-test-database';
import * as appValue from '../../app/api/apps/[app]/state/value/route';
import * as userValue from '../../app/api/apps/[app]/users/[user]/state/value/route';
import { getAppOverview } from './apps';
import { getUserOverview } from './users';
import { parseCut } from './value-cut';

describe('the user and app pages with big values', () => {
  const database = useTestDatabase('sqlite', { serveRoutes: true });
  const big = `profile ${'p'.repeat(1_900_000)}`;

  it('get their tiers cut, and the whole of a cut value from its route', async () => {
    await database.service.createSession({
      appName: 'big-tiers',
      userId: 'carol',
      sessionId: 's',
      state: { 'user:profile': big, 'user:plan': 'pro' },
    });
    await database.service.editState({
      appName: 'big-tiers',
      scope: 'app',
      changes: { catalog: { items: big } },
      actor: 'ann',
      reason: 'r',
    });

    const user = await getUserOverview('big-tiers', 'carol');
    expect(JSON.stringify(user).length).toBeLessThan(100_000);
    const profile = user!.state.find((entry) => entry.key === 'profile')!;
    expect(user!.state.find((entry) => entry.key === 'plan')!.value).toBe('pro');
    const cut = parseCut(profile.value as string)!;
    expect(cut.length).toBe(big.length);
    const whole = await call(userValue.GET, 'GET', { params: { app: 'big-tiers', user: 'carol' }, query: cut.source.split('?')[1] });
    expect(whole.json).toEqual({ value: big });

    const app = await getAppOverview('big-tiers');
    expect(JSON.stringify(app).length).toBeLessThan(100_000);
    const catalog = parseCut((app!.state.find((entry) => entry.key === 'catalog')!.value as { items: string }).items)!;
    const part = await call(appValue.GET, 'GET', { params: { app: 'big-tiers' }, query: catalog.source.split('?')[1] });
    expect(part.json).toEqual({ value: big });
  });
});
