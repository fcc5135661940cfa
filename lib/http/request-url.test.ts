import { describe, expect, it } from 'vitest';
import { madeFromUrl, requestUrl } from './request-url';

describe('requestUrl', () => {
  it('parses a request URL once, however many readers ask', () => {
    const request = new Request('http://localhost/api/apps/a/users/u/sessions?limit=2');
    const first = requestUrl(request);
    expect(requestUrl(request)).toBe(first);
    expect(first.pathname).toBe('/api/apps/a/users/u/sessions');
    expect(first.searchParams.get('limit')).toBe('2');
  });

  it('keeps each request to its own URL', () => {
    const one = requestUrl(new Request('http://localhost/api/apps/a/state'));
    const other = requestUrl(new Request('http://localhost/api/apps/b/state'));
    expect(one).not.toBe(other);
    expect(other.pathname).toBe('/api/apps/b/state');
  });

  it('answers the URL a request was made from, without parsing it again', () => {
    const url = new URL('http://localhost/api/apps/a/users/u/sessions/s/state');
    const request = madeFromUrl(new Request(url), url);
    expect(request.url).toBe(url.href);
    expect(requestUrl(request)).toBe(url);
  });
});
