import { describe, expect, it } from 'vitest';
import { resolveAuthConfig } from './config';
import { requiredRole } from './policy';
import { hasRole } from './roles';

const sqlite = 'file:./.data/statehouse.db';
const postgres = 'postgresql://u:p@db:5432/statehouse';

describe('access mode', () => {
  it('is local only for the embedded database listening on this machine', () => {
    expect(resolveAuthConfig({ databaseUrl: sqlite, host: '127.0.0.1' }).mode).toBe('local');
    expect(resolveAuthConfig({ databaseUrl: sqlite, host: 'localhost' }).mode).toBe('local');
    expect(resolveAuthConfig({ databaseUrl: sqlite, host: '::1' }).mode).toBe('local');
  });

  it('is protected when asked, on PostgreSQL, on another address, or when the address is unknown', () => {
    expect(resolveAuthConfig({ databaseUrl: sqlite, host: '127.0.0.1', auth: 'protected' })).toMatchObject({
      mode: 'protected',
      reason: 'protected (STATEHOUSE_AUTH=protected)',
    });
    expect(resolveAuthConfig({ databaseUrl: postgres, host: '127.0.0.1', auth: 'local' })).toMatchObject({
      mode: 'protected',
      reason: 'protected because the database is PostgreSQL (STATEHOUSE_AUTH=local is ignored)',
    });
    expect(resolveAuthConfig({ databaseUrl: sqlite, host: '0.0.0.0' })).toMatchObject({
      mode: 'protected',
      reason: 'protected because the server listens on 0.0.0.0, not only on this machine',
    });
    expect(resolveAuthConfig({ databaseUrl: sqlite }).mode).toBe('protected');
  });

  it('refuses settings it cannot honour', () => {
    expect(() => resolveAuthConfig({ databaseUrl: sqlite, auth: 'none' })).toThrow('STATEHOUSE_AUTH must be "local" or "protected"');
    expect(() => resolveAuthConfig({ databaseUrl: sqlite, sessionHours: '-1' })).toThrow('STATEHOUSE_SESSION_HOURS');
    expect(() => resolveAuthConfig({ databaseUrl: sqlite, trustedHeader: 'X User' })).toThrow('STATEHOUSE_TRUSTED_HEADER');
    expect(() => resolveAuthConfig({ databaseUrl: sqlite, trustedProxies: '10.0.0.0/8, proxy.internal' })).toThrow(
      'STATEHOUSE_TRUSTED_PROXIES: "proxy.internal" is not an IP address',
    );
  });
});

describe('roles', () => {
  it('include the ones below them', () => {
    expect(hasRole('admin', 'support')).toBe(true);
    expect(hasRole('support', 'viewer')).toBe(true);
    expect(hasRole('support', 'admin')).toBe(false);
    expect(hasRole('viewer', 'support')).toBe(false);
  });

  it('are required per API request: reads viewer, writes support, shared or destructive writes admin', () => {
    const session = '/api/apps/a/users/u/sessions/s';
    expect(requiredRole('GET', session)).toBe('viewer');
    expect(requiredRole('GET', '/api/list-apps')).toBe('viewer');
    expect(requiredRole('POST', '/api/render')).toBe('viewer');
    expect(requiredRole('POST', '/api/apps/a/users/u/sessions')).toBe('support');
    expect(requiredRole('POST', `${session}/events`)).toBe('support');
    expect(requiredRole('PATCH', session)).toBe('support');
    expect(requiredRole('PATCH', '/api/apps/a/users/u/state')).toBe('support');
    expect(requiredRole('DELETE', session)).toBe('admin');
    expect(requiredRole('DELETE', '/api/apps/a')).toBe('admin');
    expect(requiredRole('DELETE', '/api/apps/a/users/u')).toBe('admin');
    expect(requiredRole('PATCH', '/api/apps/a/state')).toBe('admin');
    expect(requiredRole('PUT', '/api/apps/a%2Fb/state')).toBe('admin');
    expect(requiredRole('TRACE', session)).toBe('admin');
  });
});
