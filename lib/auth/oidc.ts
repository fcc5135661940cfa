import * as client from 'openid-client';
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { OIDC_CALLBACK_PATH, SIGN_IN_PATH } from '../paths';
import type { AuthConfig } from './config';
import type { AccountStore } from './store';
import { roleFromClaims, type OidcConfig } from './oidc-config';
import { SESSION_COOKIE } from './principal';
import { safeReturnPath } from './return-path';
import { cookieIsSecure } from './session-cookie';
import { isSessionServiceError } from '../session-service/errors';

/*
 * Single sign-on: the authorization code flow with PKCE, through
 * openid-client. The ID token's signature is checked against the provider's
 * keys as well as its issuer, audience, expiry and nonce
 * (enableNonRepudiationChecks), not only trusted for having come over TLS.
 * The person's account is found by issuer and subject, their role taken
 * from their groups at every sign-in (lib/auth/store.ts, signInExternal),
 * and their session is a database session like a password sign-in's.
 */

/** Holds the flow's state, nonce and PKCE verifier between the redirect out and the callback. */
const FLOW_COOKIE = 'statehouse_oidc';
/** The ID token of a single sign-on session: the hint that ends the person's session at the provider too (sign-out). */
export const ID_TOKEN_COOKIE = 'statehouse_oidc_id';
const FLOW_SECONDS = 10 * 60;

const flowSchema = z.object({ state: z.string(), nonce: z.string(), verifier: z.string(), next: z.string() });

const discovered = new Map<string, Promise<client.Configuration>>();

/** The provider's configuration, discovered once per process (again after a failure). */
export function providerConfiguration(config: OidcConfig): Promise<client.Configuration> {
  const key = JSON.stringify([config.issuer.href, config.clientId, config.clientSecret]);
  let found = discovered.get(key);
  if (!found) {
    const execute = config.allowHttp
      ? [client.allowInsecureRequests, client.enableNonRepudiationChecks]
      : [client.enableNonRepudiationChecks];
    found = client.discovery(config.issuer, config.clientId, config.clientSecret, undefined, { execute });
    found.catch(() => discovered.delete(key));
    discovered.set(key, found);
  }
  return found;
}

/**
 * The callback on the address the person used (the Host header: Next
 * rewrites request.url's host), unless configured (behind a TLS-terminating
 * proxy, say). A wrong one only makes the provider refuse: it must match a
 * registered redirect URI.
 */
function redirectUri(config: OidcConfig, request: Request): URL {
  if (config.redirectUrl) return new URL(config.redirectUrl);
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https' ? 'https' : 'http';
  return new URL(OIDC_CALLBACK_PATH, `${proto}://${request.headers.get('host') ?? new URL(request.url).host}`);
}

/** A redirect within the console, relative, so it stays on the address the person used. */
function redirectWithin(path: string): NextResponse {
  return new NextResponse(null, { status: 303, headers: { Location: path } });
}

function forgetFlow(response: NextResponse): void {
  response.cookies.set(FLOW_COOKIE, '', { path: OIDC_CALLBACK_PATH, maxAge: 0 });
}

/** Back to the sign-in page with a message, the flow cookie gone. */
function refuse(message: string): NextResponse {
  const response = redirectWithin(`${SIGN_IN_PATH}?${new URLSearchParams({ error: message }).toString()}`);
  forgetFlow(response);
  return response;
}

/** GET /sign-in/oidc?next=...: off to the provider. */
export async function startOidcSignIn(request: Request, auth: AuthConfig): Promise<Response> {
  const config = auth.oidc;
  if (!config || auth.mode === 'local') return redirectWithin(SIGN_IN_PATH);
  let provider: client.Configuration;
  try {
    provider = await providerConfiguration(config);
  } catch (error) {
    console.error('The OpenID provider could not be reached:', error);
    return refuse(`The ${config.label} provider could not be reached; try again shortly.`);
  }
  const flow = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    next: safeReturnPath(new URL(request.url).searchParams.get('next')),
  };
  const target = client.buildAuthorizationUrl(provider, {
    redirect_uri: redirectUri(config, request).href,
    scope: config.scopes,
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
  });
  const response = NextResponse.redirect(target, 303);
  response.cookies.set(FLOW_COOKIE, Buffer.from(JSON.stringify(flow)).toString('base64url'), {
    httpOnly: true,
    secure: cookieIsSecure(request.headers),
    sameSite: 'lax',
    path: OIDC_CALLBACK_PATH,
    maxAge: FLOW_SECONDS,
  });
  return response;
}

function readFlow(request: Request): z.infer<typeof flowSchema> | null {
  const raw = /(?:^|;\s*)statehouse_oidc=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  if (!raw) return null;
  try {
    const parsed = flowSchema.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString()));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Who the provider says this is: the ID token's claims (checked), completed from userinfo when it has an endpoint. */
export async function verifiedClaims(
  provider: client.Configuration,
  callbackUrl: URL,
  checks: { verifier: string; state: string; nonce: string },
): Promise<{ claims: Record<string, unknown>; idToken: string | undefined }> {
  const tokens = await client.authorizationCodeGrant(provider, callbackUrl, {
    pkceCodeVerifier: checks.verifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error('The provider sent no ID token.');
  if (!provider.serverMetadata().userinfo_endpoint) return { claims: { ...claims }, idToken: tokens.id_token };
  const userinfo = await client.fetchUserInfo(provider, tokens.access_token, claims.sub);
  // Providers put profile and group claims in userinfo rather than the ID token; the ID token says whose they are.
  return { claims: { ...claims, ...userinfo, iss: claims.iss, sub: claims.sub }, idToken: tokens.id_token };
}

/**
 * GET /sign-in/oidc/callback: the provider's answer becomes a session, or a refusal on the sign-in page.
 * `accounts` opens the account store (lib/services.ts) once the answer is verified.
 */
export async function finishOidcSignIn(request: Request, auth: AuthConfig, accounts: () => Promise<AccountStore>): Promise<Response> {
  const config = auth.oidc;
  if (!config || auth.mode === 'local') return redirectWithin(SIGN_IN_PATH);
  const flow = readFlow(request);
  if (!flow) return refuse('The sign-in took too long or was started elsewhere; try again.');
  const query = new URL(request.url).searchParams;
  const providerError = query.get('error');
  if (providerError) return refuse(`The ${config.label} provider refused: ${query.get('error_description') ?? providerError}.`);
  // The URL the provider redirected to, as registered (behind a proxy the request's own URL may differ).
  const callbackUrl = redirectUri(config, request);
  callbackUrl.search = query.toString();
  let claims: Record<string, unknown>;
  let idToken: string | undefined;
  try {
    ({ claims, idToken } = await verifiedClaims(await providerConfiguration(config), callbackUrl, flow));
  } catch (error) {
    console.error('OpenID sign-in refused:', error);
    return refuse(`The ${config.label} sign-in could not be verified; try again.`);
  }
  const name = claims[config.nameClaim];
  if (typeof name !== 'string' || !name)
    return refuse(`The ${config.label} provider sent no ${config.nameClaim} claim to name the account.`);
  const role = roleFromClaims(config, claims);
  let secret: string;
  let expireTime: number;
  try {
    const store = await accounts();
    const account = await store.signInExternal({ externalId: `${config.issuer.href} ${String(claims.sub)}`, name, role });
    if (!account) {
      return refuse(
        role === null ? `${name} has no access: none of their groups is given a role here.` : `The account ${name} is disabled.`,
      );
    }
    ({ secret, expireTime } = await store.startSession(account.id, auth.sessionLifetimeSeconds));
  } catch (error) {
    if (isSessionServiceError(error)) return refuse(error.message);
    throw error;
  }
  const response = redirectWithin(flow.next);
  forgetFlow(response);
  // The session, and its ID token for signing out at the provider too: both for as long as the session lasts.
  const cookie = {
    httpOnly: true,
    secure: cookieIsSecure(request.headers),
    sameSite: 'lax',
    path: '/',
    expires: new Date(expireTime * 1000),
  } as const;
  response.cookies.set(SESSION_COOKIE, secret, cookie);
  if (idToken) response.cookies.set(ID_TOKEN_COOKIE, idToken, cookie);
  return response;
}

/**
 * Where sign-out goes after the console's session ended: the provider's
 * end_session_endpoint (RP-initiated logout), with the session's ID token as
 * the hint and the console's sign-in page to come back to (register it at the
 * provider as a post-logout redirect URI); null when the provider offers none
 * or the session was not a single sign-on one.
 */
export async function providerSignOutUrl(auth: AuthConfig, idToken: string | undefined, headers: Headers): Promise<string | null> {
  const config = auth.oidc;
  if (!config || auth.mode === 'local' || !idToken) return null;
  let provider: client.Configuration;
  try {
    provider = await providerConfiguration(config);
  } catch (error) {
    console.error('The OpenID provider could not be reached to end its session:', error);
    return null;
  }
  if (!provider.serverMetadata().end_session_endpoint) return null;
  const back = redirectUri(config, new Request('http://console/', { headers }));
  back.pathname = SIGN_IN_PATH;
  back.search = '';
  return client.buildEndSessionUrl(provider, { id_token_hint: idToken, post_logout_redirect_uri: back.href }).href;
}
