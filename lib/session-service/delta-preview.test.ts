import { describe, expect, it } from 'vitest';
import { previewDelta, previewEdit } from './delta-preview';
import type { StateRecord } from './types';

describe('previewDelta', () => {
  const tiers = { app: { tone: 'warm' }, user: { plan: 'free' }, session: { step: 1, same: [1] } };

  it('classifies every key by tier and kind', () => {
    const changes = previewDelta(
      { step: 2, same: [1], fresh: true, 'user:plan': 'pro', 'app:new': 0, 'temp:scratch': 'x', 'app:user:k': 1 },
      tiers,
    );
    expect(changes.map((c) => [c.prefixedKey, c.scope, c.key, c.kind, c.oldValue, c.shared])).toEqual([
      ['step', 'session', 'step', 'changed', 1, false],
      ['same', 'session', 'same', 'unchanged', [1], false],
      ['fresh', 'session', 'fresh', 'added', undefined, false],
      ['user:plan', 'user', 'plan', 'changed', 'free', true],
      ['app:new', 'app', 'new', 'added', undefined, true],
      ['temp:scratch', 'temp', 'scratch', 'temp', undefined, false],
      ['app:user:k', 'app', 'user:k', 'added', undefined, true],
    ]);
  });

  it('does not mistake inherited names for existing keys', () => {
    const [change] = previewDelta({ constructor: 1 }, { app: {}, user: {}, session: {} });
    expect(change?.kind).toBe('added');
    expect(change?.sameNameIn).toEqual([]);
  });

  it('flags null as stored (a delta cannot remove a key)', () => {
    const [change, temp] = previewDelta({ step: null, 'temp:t': null }, tiers);
    expect(change).toMatchObject({ kind: 'changed', oldValue: 1, newValue: null, storesNull: true });
    expect(temp).toMatchObject({ kind: 'temp', storesNull: false });
  });

  it('names the other tiers holding a key of the same name, which the write leaves alone', () => {
    const changes = previewDelta({ plan: 'pro', 'app:step': 2, 'temp:tone': 'x', 'user:plan': 'x' }, tiers);
    expect(changes.map((c) => [c.prefixedKey, c.sameNameIn])).toEqual([
      ['plan', ['user']],
      ['app:step', ['session']],
      ['temp:tone', ['app']],
      ['user:plan', []],
    ]);
  });

  it('keeps __proto__ as an ordinary key', () => {
    const delta = JSON.parse('{"__proto__": 1}') as StateRecord;
    const session = JSON.parse('{"__proto__": 0}') as StateRecord;
    expect(previewDelta(delta, { app: {}, user: {}, session })[0]).toMatchObject({ key: '__proto__', kind: 'changed', oldValue: 0 });
  });
});

describe('previewEdit', () => {
  it('classifies each change of a tier edit', () => {
    const tier = { plan: 'free', note: { vip: true }, same: [1, 2] };
    const changes = previewEdit({ plan: 'pro', note: undefined, fresh: 0, same: [1, 2], gone: undefined }, tier);
    expect(changes).toEqual([
      { key: 'plan', kind: 'changed', oldValue: 'free', newValue: 'pro' },
      { key: 'note', kind: 'removed', oldValue: { vip: true } },
      { key: 'fresh', kind: 'added', newValue: 0 },
      { key: 'same', kind: 'unchanged', oldValue: [1, 2], newValue: [1, 2] },
      { key: 'gone', kind: 'absent' },
    ]);
  });

  it('sets null as a value, distinct from removing', () => {
    expect(previewEdit({ plan: null }, { plan: 'free' })[0]).toEqual({ key: 'plan', kind: 'changed', oldValue: 'free', newValue: null });
  });
});
