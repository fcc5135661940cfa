import { describe, expect, it } from 'vitest';
import { previewDelta } from './delta-preview';

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
  });
});
