// Single sign-on's checks at unit level, against a provider of the test's own
// (discovery, keys and a token endpoint on a local server, ID tokens signed
// with the test's keys): a good ID token passes; one signed by another key,
// expired, for another client or with another nonce is refused. And the
// settings: group-to-role mapping, and what cannot work refuses to start.
import { createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOidcConfig, roleFromClaims, type OidcConfig } from './oidc-config';
import { providerConfiguration, verifiedClaims } from './oidc';

const CLIENT_ID = 'statehouse-test';
const NONCE = 'the-nonce';

function jwt(key: KeyObject, kid: string, claims: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${encode({ alg: 'RS256', typ: 'JWT', kid })}.${encode(claims)}`;
  return `${body}.${createSign('RSA-SHA256').update(body).sign(key).toString('base64url')}`;
}

describe('ID tokens', () => {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forger = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'test-key';
  let server: Server;
  let issuer: string;
  /** What the token endpoint answers next. */
  let nextIdToken = '';
  let config: OidcConfig;

  const claims = (overrides: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return { iss: issuer, sub: 'person-1', aud: CLIENT_ID, iat: now, exp: now + 300, nonce: NONCE, groups: ['helpdesk'], ...overrides };
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      const json = (value: unknown) => {
        response.setHeader('Content-Type', 'application/json');
        response.end(JSON.stringify(value));
      };
      if (request.url === '/.well-known/openid-configuration') {
        return json({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        });
      }
      if (request.url === '/jwks') return json({ keys: [{ ...keys.publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] });
      if (request.url === '/token') {
        request.resume();
        return request.on('end', () => json({ access_token: randomUUID(), token_type: 'Bearer', expires_in: 300, id_token: nextIdToken }));
      }
      response.statusCode = 404;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const parsed = parseOidcConfig({ issuer, clientId: CLIENT_ID, clientSecret: 'a secret', roles: 'helpdesk=support' });
    if (!parsed) throw new Error('not configured');
    config = parsed;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function signIn(idToken: string): Promise<Record<string, unknown>> {
    nextIdToken = idToken;
    const callback = new URL(`http://127.0.0.1/sign-in/oidc/callback?code=a-code&state=the-state&iss=${encodeURIComponent(issuer)}`);
    const { claims } = await verifiedClaims(await providerConfiguration(config), callback, {
      verifier: 'v'.repeat(43),
      state: 'the-state',
      nonce: NONCE,
    });
    return claims;
  }

  it('accepts an ID token signed by the provider’s key, for this client, in time, with the nonce', async () => {
    expect(await signIn(jwt(keys.privateKey, kid, claims()))).toMatchObject({ sub: 'person-1', groups: ['helpdesk'] });
  });

  /** Why the sign-in was refused, as openid-client's underlying check says. */
  async function refusal(idToken: string): Promise<string> {
    const error: unknown = await signIn(idToken).then(
      () => new Error('accepted'),
      (caught: unknown) => caught,
    );
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? cause.message : String(error);
  }

  it('refuses an ID token signed by another key under the provider’s key id (forged)', async () => {
    expect(await refusal(jwt(forger.privateKey, kid, claims()))).toBe('JWT signature verification failed');
  });

  it('refuses an expired ID token', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    expect(await refusal(jwt(keys.privateKey, kid, claims({ iat: past - 300, exp: past })))).toMatch(/"exp".*timestamp/);
  });

  it('refuses an ID token for another client, from another issuer, or with another nonce', async () => {
    expect(await refusal(jwt(keys.privateKey, kid, claims({ aud: 'someone-else' })))).toMatch(/"aud"/);
    expect(await refusal(jwt(keys.privateKey, kid, claims({ iss: 'https://elsewhere.example' })))).toMatch(/"iss"/);
    expect(await refusal(jwt(keys.privateKey, kid, claims({ nonce: 'replayed' })))).toMatch(/"nonce"/);
  });
});

describe('single sign-on settings', () => {
  const config = parseOidcConfig({
    issuer: 'https://id.example.com',
    clientId: 'statehouse',
    roles: 'statehouse-admins=admin, helpdesk=support,staff=viewer',
  });

  it('maps groups to the highest role among them; no listed group, no access', () => {
    if (!config) throw new Error('not configured');
    expect(roleFromClaims(config, { groups: ['staff', 'helpdesk'] })).toBe('support');
    expect(roleFromClaims(config, { groups: ['statehouse-admins', 'staff'] })).toBe('admin');
    expect(roleFromClaims(config, { groups: 'staff' })).toBe('viewer');
    expect(roleFromClaims(config, { groups: ['marketing'] })).toBeNull();
    expect(roleFromClaims(config, {})).toBeNull();
  });

  it('is off without an issuer and refuses settings that cannot work', () => {
    expect(parseOidcConfig({})).toBeNull();
    expect(() => parseOidcConfig({ issuer: 'https://id.example.com', roles: 'a=admin' })).toThrow('STATEHOUSE_OIDC_CLIENT_ID');
    expect(() => parseOidcConfig({ issuer: 'https://id.example.com', clientId: 'c' })).toThrow('STATEHOUSE_OIDC_ROLES');
    expect(() => parseOidcConfig({ issuer: 'https://id.example.com', clientId: 'c', roles: 'a=owner' })).toThrow('group=role');
    expect(() => parseOidcConfig({ issuer: 'http://id.example.com', clientId: 'c', roles: 'a=admin' })).toThrow('https://');
    expect(() => parseOidcConfig({ issuer: 'https://id.example.com', clientId: 'c', roles: 'a=admin', scopes: 'profile' })).toThrow(
      'openid',
    );
  });
});
