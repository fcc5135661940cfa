// The compare view's read over a real store: a fork and its source part at
// the fork point, tiers keyed and marked, users compared, big values cut
// with a route that answers the whole.
import { describe, expect, it } from 'vitest';
import { comparePath } from '../paths';
import { capability } from '../session-service/operations';
import { compareTier, sharedPrefixLength } from '../session-service/compare';
import { appendEvents, stateDeltaEvent, textEvent } from '../testing/factories';
import { call } from '../testing/http';
import { useTestDatabase } from '../testing/use-test-database';
import * as userValue from '../../app/api/apps/[app]/users/[user]/state/value/route';
import { readCompareChoices, readComparison } from './compare';
import { compareQueryOf } from './compare-params';
import { parseCut } from './value-cut';

const entry = (key: string, value: unknown) => ({ key, value: value as never, updateTime: 0, lastChange: null });

describe('compareTier and sharedPrefixLength', () => {
  it('marks each key of either side, object key order aside', () => {
    const rows = compareTier(
      [entry('a', { x: 1, y: 2 }), entry('b', 1), entry('c', 'left')],
      [entry('a', { y: 2, x: 1 }), entry('b', 2), entry('d', 'right')],
    );
    expect(rows.map(({ key, standing }) => [key, standing])).toEqual([
      ['a', 'same'],
      ['b', 'changed'],
      ['c', 'left-only'],
      ['d', 'right-only'],
    ]);
    expect(sharedPrefixLength(['1', '2', '3'], ['1', '2', 'x', '3'])).toBe(2);
    expect(sharedPrefixLength([], ['1'])).toBe(0);
  });
});

describe('compare URLs', () => {
  it('round-trip both kinds, the second side defaulting to the first one’s app and user', () => {
    const a = { appName: 'a p', userId: 'u+1', sessionId: 's#1' };
    for (const [left, right] of [
      [a, { ...a, sessionId: 's2' }],
      [a, { appName: 'other', userId: 'v', sessionId: 's3' }],
      [
        { appName: 'a', userId: 'u' },
        { appName: 'a', userId: 'v' },
      ],
    ] as const) {
      const url = new URL(comparePath(left, right), 'http://x');
      expect(compareQueryOf(Object.fromEntries(url.searchParams))).toEqual({ left, right });
    }
    expect(comparePath(a, { ...a, sessionId: 's2' })).toBe('/compare?app=a+p&user=u%2B1&session=s%231&session2=s2');
    // A session against a user is no comparison: the page offers a choice.
    expect(compareQueryOf({ app: 'a', user: 'u', session: 's', user2: 'v' })).toEqual({
      left: { appName: 'a', userId: 'u', sessionId: 's' },
      right: null,
    });
    expect(compareQueryOf({ app: 'a' })).toBeNull();
  });
});

describe('readComparison', () => {
  const database = useTestDatabase('sqlite', { serveRoutes: true });
  const source = { appName: 'cmp', userId: 'carol', sessionId: 'source' };

  it('shows where a fork parts from its source, and each tier marked key by key', async () => {
    const store = database.service;
    const session = await store.createSession({ ...source, state: { topic: 'refund', 'user:plan': 'pro', 'app:tone': 'kind' } });
    await appendEvents(store, session, [
      textEvent('user', 'I was charged twice'),
      stateDeltaEvent('agent', { order: '4711' }),
      textEvent('agent', 'Looking into it'),
    ]);
    await capability(store, 'forkSession')({ source, atSeq: 2, sessionId: 'what-if' }, { actor: 'test' });
    const forkRef = { ...source, sessionId: 'what-if' };
    const fork = await store.getSession(forkRef);
    await appendEvents(store, fork!, [{ ...stateDeltaEvent('agent', { topic: 'upgrade', coupon: 'X1' }), errorCode: 'RATE_LIMIT' }]);
    await store.append(source, stateDeltaEvent('agent', { order: '4712' }));

    const comparison = await readComparison(store, source, forkRef);
    expect(comparison.kind).toBe('sessions');
    const session_ = comparison.tiers.find((tier) => tier.scope === 'session')!;
    expect(session_.rows.map(({ key, standing }) => [key, standing])).toEqual([
      ['coupon', 'right-only'],
      ['order', 'changed'],
      ['topic', 'changed'],
    ]);
    expect(comparison.tiers.find((tier) => tier.scope === 'user')).toMatchObject({ shared: true });
    expect(comparison.events).toMatchObject({ shared: 2, complete: true, lastSharedSeq: [2, 2], leftAfter: 2, rightAfter: 1 });
    expect(comparison.events!.left.map((item) => item.gist)).toEqual(['Looking into it', 'sets order']);
    expect(comparison.events!.right[0]).toMatchObject({ seq: 3, gist: 'error RATE_LIMIT · sets topic, coupon', error: true });

    // The session page's picker offers the fork first.
    const choices = await readCompareChoices(store, source);
    expect(choices[0]).toMatchObject({ side: forkRef, note: 'forked from this session at #2' });
  });

  it('compares two users, cutting a big user: value with a route that answers the whole of it', async () => {
    const store = database.service;
    const big = 'z'.repeat(2 * 1024 * 1024);
    await store.createSession({ appName: 'cmp', userId: 'dave', sessionId: 'd1', state: { 'user:plan': 'free', 'user:profile': big } });
    const comparison = await readComparison(store, { appName: 'cmp', userId: 'carol' }, { appName: 'cmp', userId: 'dave' });
    expect(comparison.kind).toBe('users');
    expect(comparison.left.sessionCount).toBe(2);
    const user = comparison.tiers.find((tier) => tier.scope === 'user')!;
    expect(user.rows.map(({ key, standing }) => [key, standing])).toEqual([
      ['plan', 'changed'],
      ['profile', 'right-only'],
    ]);
    expect(comparison.tiers.find((tier) => tier.scope === 'app')).toMatchObject({ shared: true });
    const cut = parseCut(user.rows[1]!.right as string);
    expect(cut).toMatchObject({ length: big.length });
    const whole = await call(userValue.GET, 'GET', { params: { app: 'cmp', user: 'dave' }, query: cut!.source.split('?')[1] });
    expect(whole.status, whole.text).toBe(200);
    expect(whole.json).toEqual({ value: big });
    const none = await call(userValue.GET, 'GET', { params: { app: 'cmp', user: 'dave' }, query: 'key=nope' });
    expect(none.status).toBe(404);
  });

  it('says which side does not exist', async () => {
    const comparison = await readComparison(database.service, source, { ...source, sessionId: 'gone' });
    expect(comparison.right.summary).toBeNull();
    expect(comparison.tiers).toEqual([]);
    expect(comparison.events).toBeNull();
  });
});
