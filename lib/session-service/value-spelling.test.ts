import { describe, expect, it } from 'vitest';
import { encodeEvent, encodeSpelled, spelledBody, spellingsAt, spellingsOfText, splitSpellings } from './value-spelling';
import type { Event } from './types';

const event = (stateDelta: Event['actions']['stateDelta'], text = 'hi'): Event => ({
  id: 'e1',
  invocationId: 'i1',
  author: 'agent',
  timestamp: 1.5,
  content: { parts: [{ text }] },
  actions: { stateDelta, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} },
});

describe('value spelling', () => {
  it('finds only the values JSON.stringify would spell otherwise, at the first path holding an object', () => {
    const body = spelledBody('{"actions": {"state_delta": {"a": 2.0, "b": 2, "c": 1.5, "d": [1e2], "e": {"z": 1, "1": 2}}}}');
    expect(spellingsAt(body, ['actions', 'stateDelta'], ['actions', 'state_delta'])).toEqual(
      new Map([
        ['a', '2.0'],
        ['d', '[1e2]'],
        ['e', '{"z":1,"1":2}'],
      ]),
    );
    expect(spellingsOfText('{"a": 2, "b": "2.0"}')).toBeUndefined();
    // Nothing to look at: no scan at all.
    expect(spelledBody('{"a": 2, "b": [true, null]}')).toBeNull();
  });

  it('uses the written text only for the very value written', () => {
    expect(encodeSpelled(2, '2.0')).toBe('2.0');
    expect(encodeSpelled(3, '2.0')).toBe('3');
    expect(encodeSpelled({ a: 2 }, '{"a":2.0}')).toBe('{"a":2.0}');
    expect(encodeSpelled({ a: 2, b: 1 }, '{"a":2.0}')).toBe('{"a":2,"b":1}');
  });

  it('spells the stored event’s delta and nothing else; an event holding the mark’s own text is stored as JSON.stringify writes it', () => {
    const spellings = new Map([
      ['f', '2.0'],
      ['gone', '1.0'],
    ]);
    const text = encodeEvent(event({ f: 2, g: 1 }), spellings);
    expect(text).toBe(JSON.stringify(event({ f: 2, g: 1 })).replace('"f":2', '"f":2.0'));
    expect(encodeEvent(event({ g: 1 }), spellings)).toBe(JSON.stringify(event({ g: 1 })));
    const tricky = event({ f: 2 }, '\u0000statehouse:spelled-delta\u0000');
    expect(encodeEvent(tricky, spellings)).toBe(JSON.stringify(tricky));
  });

  it('splits by tier as deltas split', () => {
    expect(
      splitSpellings(
        new Map([
          ['app:a', '1.0'],
          ['user:b', '2.0'],
          ['c:d', '3.0'],
          ['temp:t', '4.0'],
        ]),
      ),
    ).toEqual({
      app: new Map([['a', '1.0']]),
      user: new Map([['b', '2.0']]),
      session: new Map([['c:d', '3.0']]),
    });
  });
});
