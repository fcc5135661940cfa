import { describe, expect, it } from 'vitest';
import { requiredRole, roleForStateKeys, roleForStateWrite } from './policy';

describe('access policy', () => {
  it('needs admin for app state by its route', () => {
    expect(requiredRole('PATCH', '/api/apps/a/state')).toBe('admin');
    expect(requiredRole('POST', '/api/apps/a/users/u/sessions/s/events')).toBe('support');
    expect(requiredRole('TRACE', '/api/apps')).toBe('admin');
  });

  it('needs admin for app: keys whatever carries them', () => {
    expect(roleForStateKeys(['topic', 'user:plan', 'temp:x'])).toBe('support');
    expect(roleForStateKeys(['topic', 'app:tone'])).toBe('admin');
    expect(roleForStateWrite({})).toBe('support');
    expect(roleForStateWrite({ state: { 'app:tone': 1 } })).toBe('admin');
    expect(roleForStateWrite({ state: { a: 1 }, events: [{}, { actions: null }, { actions: { stateDelta: { 'app:x': 1 } } }] })).toBe(
      'admin',
    );
    expect(roleForStateWrite({ events: [{ actions: { stateDelta: { 'user:x': 1 } } }] })).toBe('support');
  });
});
