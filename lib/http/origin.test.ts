import { afterEach, describe, expect, it } from 'vitest';
import { checkOrigin } from './origin';
import { HttpError } from './problem';

function request(method: string, headers: Record<string, string>): Request {
  return new Request('http://localhost:3000/api/x', { method, headers });
}

function refused(req: Request): boolean {
  try {
    checkOrigin(req);
    return false;
  } catch (error) {
    if (error instanceof HttpError && error.status === 403) return true;
    throw error;
  }
}

afterEach(() => {
  delete process.env.STATEHOUSE_ALLOWED_ORIGINS;
});

describe('checkOrigin', () => {
  it('lets reads, scripts (no Origin) and same-origin pages through', () => {
    expect(refused(request('GET', { origin: 'https://evil.example' }))).toBe(false);
    expect(refused(request('DELETE', {}))).toBe(false);
    expect(refused(request('POST', { origin: 'http://app.test:8080', host: 'app.test:8080' }))).toBe(false);
    expect(refused(request('POST', { origin: 'http://localhost:3000' }))).toBe(false);
  });

  it('refuses state changes sent by other sites', () => {
    expect(refused(request('POST', { origin: 'https://evil.example', host: 'localhost:3000' }))).toBe(true);
    expect(refused(request('PATCH', { origin: 'null', host: 'localhost:3000' }))).toBe(true);
    expect(refused(request('DELETE', { origin: 'http://localhost:3001', host: 'localhost:3000' }))).toBe(true);
  });

  it('believes proxy headers for the origin the client addressed', () => {
    const proxied = { origin: 'https://statehouse.example', host: '10.0.0.5:3000' };
    expect(refused(request('POST', { ...proxied, 'x-forwarded-host': 'statehouse.example', 'x-forwarded-proto': 'https' }))).toBe(false);
    expect(refused(request('POST', { ...proxied, forwarded: 'for=1.2.3.4;proto=https;host="statehouse.example"' }))).toBe(false);
    expect(refused(request('POST', proxied))).toBe(true);
  });

  it('allows origins listed in STATEHOUSE_ALLOWED_ORIGINS', () => {
    process.env.STATEHOUSE_ALLOWED_ORIGINS = 'https://tools.example, https://other.example';
    expect(refused(request('POST', { origin: 'https://tools.example', host: 'localhost:3000' }))).toBe(false);
    expect(refused(request('POST', { origin: 'https://evil.example', host: 'localhost:3000' }))).toBe(true);
  });
});
