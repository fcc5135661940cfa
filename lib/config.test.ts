// The access settings are resolved once per environment: every API request
// asks for them two or three times.
import { afterEach, describe, expect, it } from 'vitest';
import { authConfig } from './config';

describe('authConfig()', () => {
  const saved = process.env.STATEHOUSE_TRUSTED_PROXIES;
  afterEach(() => {
    if (saved === undefined) delete process.env.STATEHOUSE_TRUSTED_PROXIES;
    else process.env.STATEHOUSE_TRUSTED_PROXIES = saved;
  });

  it('is the same object until the environment changes, then follows it', () => {
    process.env.STATEHOUSE_TRUSTED_PROXIES = '10.0.0.1';
    const first = authConfig();
    expect(authConfig()).toBe(first);
    process.env.STATEHOUSE_TRUSTED_PROXIES = '10.0.0.2';
    const changed = authConfig();
    expect(changed).not.toBe(first);
    expect(changed.trustedProxies).not.toEqual(first.trustedProxies);
  });
});
