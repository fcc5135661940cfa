import { describe, expect, it } from 'vitest';
import { appListQueryOf, limitOffset, pageCount, sessionListQueryOf, stateFilterOf, userListQueryOf } from './list-params';
import { routeId } from './route-params';

describe('list URLs', () => {
  it('reads a session search: text, key, JSON-or-text value, sort, page and size', () => {
    expect(sessionListQueryOf({ q: ' ab ', key: 'user:plan', value: 'pro', sort: 'oldest', page: '3', size: '10' })).toEqual({
      q: 'ab',
      filters: [{ key: 'user:plan', op: 'contains', value: 'pro' }],
      value: undefined,
      stateValue: undefined,
      sort: 'oldest',
      errors: false,
      page: 3,
      size: 10,
    });
    expect(sessionListQueryOf({ errors: '1', sort: 'events' })).toMatchObject({ errors: true, sort: 'events' });
    expect(sessionListQueryOf({ value: '3' }).stateValue).toBe(3);
    expect(sessionListQueryOf({ value: '"3"' }).stateValue).toBe('3');
    expect(sessionListQueryOf({ value: '{"a":[true,null]}' }).stateValue).toEqual({ a: [true, null] });
  });

  it('reads state filters: the walk-through’s topic=refu looks inside, JSON compares whole, up to three combine', () => {
    expect(sessionListQueryOf({ key: 'topic', value: 'refu' }).filters).toEqual([{ key: 'topic', op: 'contains', value: 'refu' }]);
    expect(stateFilterOf({ key: 'topic', op: 'contains', value: 'refu' })).toEqual({ key: 'topic', op: 'contains', value: 'refu' });
    expect(sessionListQueryOf({ key: 'n', value: '3' }).filters).toEqual([{ key: 'n', op: '=', value: '3' }]);
    expect(stateFilterOf({ key: 'n', op: '=', value: '3' })).toEqual({ key: 'n', op: '=', value: 3 });
    expect(stateFilterOf({ key: 'day', op: '>', value: '2026-01-01' })).toEqual({ key: 'day', op: '>', value: '2026-01-01' });
    expect(sessionListQueryOf({ key: 'user:profile.email' }).filters).toEqual([{ key: 'user:profile.email', op: 'exists' }]);
    const three = sessionListQueryOf({
      key: 'topic',
      op: '!=',
      value: 'spam',
      key2: 'user:age',
      op2: '>',
      value2: '30',
      key3: 'app:flag',
      op3: 'nonsense',
      key4: 'ignored',
    });
    expect(three.filters).toEqual([
      { key: 'topic', op: '!=', value: 'spam' },
      { key: 'user:age', op: '>', value: '30' },
      { key: 'app:flag', op: 'exists' },
    ]);
    expect(stateFilterOf({ key: 'user:age', op: '>', value: '30' })).toEqual({ key: 'user:age', op: '>', value: 30 });
  });

  it('falls back to defaults for what makes no sense, instead of failing the page', () => {
    const defaults = { page: 1, size: 25, sort: 'recent' };
    expect(sessionListQueryOf({})).toMatchObject({ ...defaults, q: undefined, filters: [], stateValue: undefined });
    expect(sessionListQueryOf({ page: '0', size: '7', sort: 'sideways' })).toMatchObject(defaults);
    expect(sessionListQueryOf({ page: '2.5', size: '1e3' })).toMatchObject(defaults);
    expect(sessionListQueryOf({ page: '-4', q: '   ' })).toMatchObject({ ...defaults, q: undefined });
    // Given twice (?page=2&page=5): the first counts.
    expect(userListQueryOf({ page: ['2', '5'], sort: ['sessions', 'id'] })).toMatchObject({ page: 2, sort: 'sessions' });
    expect(appListQueryOf({ sort: 'name', size: '100' })).toMatchObject({ sort: 'name', size: 100 });
  });

  it('turns pages into limit and offset, and totals into page counts', () => {
    expect(limitOffset({ page: 3, size: 25 })).toEqual({ limit: 25, offset: 50 });
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(25, 25)).toBe(1);
    expect(pageCount(26, 25)).toBe(2);
  });
});

describe('routeId', () => {
  it('decodes a page segment exactly once', () => {
    expect(routeId('sp%20ace%C3%BC')).toBe('sp aceü');
    expect(routeId('a%2520b')).toBe('a%20b');
    expect(routeId('%3F%23%26')).toBe('?#&');
  });

  it('refuses what cannot be an id', () => {
    expect(routeId('%E0%A4%A')).toBeNull(); // malformed escape
    expect(routeId('a%2Fb')).toBeNull(); // ids never contain "/"
    expect(routeId('%00')).toBeNull();
    expect(routeId('')).toBeNull();
    expect(routeId('%20padded')).toBeNull();
  });
});
