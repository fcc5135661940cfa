import { afterEach, describe, expect, it, vi } from 'vitest';
import { idSchema } from '../validation/schemas';
import { pathId, sessionRefOf } from './params';

describe('path ids', () => {
  afterEach(() => vi.restoreAllMocks());

  it('checks an id once and answers it again from the ids already checked', () => {
    const parse = vi.spyOn(idSchema, 'safeParse');
    expect(pathId('params-test-app', 'appName')).toBe('params-test-app');
    expect(pathId('params-test-app', 'appName')).toBe('params-test-app');
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('refuses an id that is not one every time', () => {
    const parse = vi.spyOn(idSchema, 'safeParse');
    expect(() => pathId('bad\u0000id', 'sessionId')).toThrow(/sessionId/);
    expect(() => pathId('bad\u0000id', 'sessionId')).toThrow(/sessionId/);
    expect(() => pathId('', 'userId')).toThrow(/userId: must not be empty/);
    expect(parse).toHaveBeenCalledTimes(3);
  });

  it('names the part of the path that is wrong', () => {
    expect(sessionRefOf({ app: 'a', user: 'u', id: 's' })).toEqual({ appName: 'a', userId: 'u', sessionId: 's' });
    expect(() => sessionRefOf({ app: 'a', user: 'u', id: '' })).toThrow(/sessionId: must not be empty/);
  });
});
