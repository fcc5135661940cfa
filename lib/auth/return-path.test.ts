import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path';

describe('safeReturnPath', () => {
  it.each([
    '//evil.com',
    '/\\evil.com',
    '/..//evil.com',
    '/./\\evil.com',
    '/.//evil.com/path',
    '/%2e%2e//evil.com',
    '/%2E%2E//evil.com',
    '/x/..%2F..%2F%2Fevil.com',
    '/x/..%2f..%2f%2fevil.com',
    '/x/..%5C..%5C%5Cevil.com',
    '/apps/..//evil.com',
    '/apps/../..//evil.com',
    '/%2F%2Fevil.com',
    '/%5Cevil.com',
    '/\tevil.com',
    '/\n/evil.com',
    'https://evil.com',
    'http:/evil.com',
    'javascript:alert(1)',
    'evil.com',
    '',
    '/%',
    '/%ZZ',
    `/${'a'.repeat(2001)}`,
  ])('sends %j to the apps page', (next) => {
    expect(safeReturnPath(next)).toBe('/apps');
  });

  it.each([
    ['/apps', '/apps'],
    ['/apps/my%20app/users/u1?q=a%2Fb&page=2#events', '/apps/my%20app/users/u1?q=a%2Fb&page=2#events'],
    ['/apps/a%2Fb', '/apps/a%2Fb'],
    ['/apps/./x/../y', '/apps/y'],
    ['/apps/v1.2', '/apps/v1.2'],
    // Encoded, so the redirect's Location header is valid.
    ['/apps/café?q=日本', '/apps/caf%C3%A9?q=%E6%97%A5%E6%9C%AC'],
  ])('keeps %j on this site as %j', (next, expected) => {
    expect(safeReturnPath(next)).toBe(expected);
  });

  it('ignores what is not a string', () => {
    expect(safeReturnPath(undefined)).toBe('/apps');
    expect(safeReturnPath(['/apps/x'])).toBe('/apps');
    expect(safeReturnPath(null, '/')).toBe('/');
  });
});
