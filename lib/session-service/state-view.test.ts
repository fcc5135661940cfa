import { describe, expect, it } from 'vitest';
import { mergedEntries, mergedRecord } from './merged-entries';
import { changeKind, diffState, jsonEqual } from './state-diff';
import type { SessionTiers, StateEntry } from './types';

const entry = (key: string, value: StateEntry['value']): StateEntry => ({ key, value, updateTime: 1, lastChange: null });

describe('diffState', () => {
  it('lists added, changed and removed keys, sorted, and leaves equal values out', () => {
    const before = { a: 1, b: { x: [1, 2], y: null }, gone: 'x', same: 'v' };
    const after = { a: 2, b: { y: null, x: [1, 2] }, same: 'v', 'app:new': true };
    expect(diffState(before, after)).toEqual([
      { key: 'a', kind: 'changed', before: 1, after: 2 },
      { key: 'app:new', kind: 'added', after: true },
      { key: 'gone', kind: 'removed', before: 'x' },
    ]);
  });

  it('treats __proto__ as an ordinary key', () => {
    const after = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, never>;
    expect(diffState({}, after)).toEqual([{ key: '__proto__', kind: 'added', after: { polluted: true } }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('tells null from absent and arrays from objects', () => {
    expect(changeKind(undefined, null)).toBe('added');
    expect(changeKind(null, undefined)).toBe('removed');
    expect(changeKind(null, null)).toBe('unchanged');
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual([1, [2]], [1, [2]])).toBe(true);
  });
});

describe('mergedEntries', () => {
  it('gives session keys, then app:, then user: keys, each with its tier and provenance', () => {
    const tiers: SessionTiers = {
      app: [entry('x', 'app')],
      user: [entry('x', 'user'), entry('plan', 'pro')],
      session: [entry('x', 'session')],
    };
    const merged = mergedEntries(tiers);
    expect(merged.map((e) => [e.key, e.scope, e.value])).toEqual([
      ['x', 'session', 'session'],
      ['app:x', 'app', 'app'],
      ['user:x', 'user', 'user'],
      ['user:plan', 'user', 'pro'],
    ]);
    expect(mergedRecord(tiers)).toEqual({ x: 'session', 'app:x': 'app', 'user:x': 'user', 'user:plan': 'pro' });
  });
});
