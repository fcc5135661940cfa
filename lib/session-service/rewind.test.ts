// adk-python's compute_state_delta_for_rewind (sessions/_rewind_utils.py), case by case.
import { describe, expect, it } from 'vitest';
import { completeEvent } from './events';
import { rewindEvent, rewindIndex, rewindStateDelta } from './rewind';
import type { Event, StateRecord } from './types';

const event = (invocationId: string, stateDelta: StateRecord): Event =>
  completeEvent({ author: 'agent', invocationId, actions: { stateDelta } });

describe('rewind delta, as upstream computes it', () => {
  const events = [
    event('a', { x: 1, 'user:u': 1, 'app:g': 1 }),
    event('b', { x: 2, y: 'new' }),
    event('b', { z: { deep: true } }),
    event('c', { x: 3, y: null, 'user:u': 2 }),
  ];
  const state: StateRecord = { x: 3, y: null, z: { deep: true }, 'user:u': 2, 'app:g': 1 };

  it('finds the first event of the invocation', () => {
    expect(rewindIndex(events, 'b')).toBe(1);
    expect(rewindIndex(events, 'nope')).toBe(-1);
  });

  it('restores changed keys and nulls keys added since; shared keys are left alone', () => {
    expect(rewindStateDelta(events, 1, state)).toEqual({ x: 1, y: null, z: null });
  });

  it('treats null in a replayed delta as removal, so a key removed before the point is nulled', () => {
    const withRemoval = [event('a', { k: 1 }), event('b', { k: null }), event('c', { k: 5 })];
    expect(rewindStateDelta(withRemoval, 2, { k: 5 })).toEqual({ k: null });
  });

  it('leaves out keys whose value is already the one at the rewind point (deep equality)', () => {
    const same = [event('a', { o: { p: [1, 2] } }), event('b', { q: 1 })];
    expect(rewindStateDelta(same, 1, { o: { p: [1, 2] }, q: 1 })).toEqual({ q: null });
  });

  it('before the first invocation: every session key is nulled, initial state included (adk-python#4933)', () => {
    expect(rewindStateDelta(events, 0, { ...state, initial: 'from create_session' })).toEqual({ x: null, y: null, z: null, initial: null });
  });

  it('builds the event: author user, a new e- invocation, the invocation it rewinds before', () => {
    const { index, event: rewind } = rewindEvent(events, state, 'c');
    expect(index).toBe(3);
    expect(rewind).toMatchObject({
      author: 'user',
      actions: { rewindBeforeInvocationId: 'c', stateDelta: { x: 2, y: 'new' }, artifactDelta: {} },
    });
    expect(rewind.invocationId).toMatch(/^e-[0-9a-f-]{36}$/);
    expect(() => rewindEvent(events, state, 'nope')).toThrow('Invocation ID not found: nope');
  });
});
