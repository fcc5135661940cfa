'use server';

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { SESSION_COOKIE } from '../auth/principal';
import { cookieIsSecure } from '../auth/session-cookie';
import { ID_TOKEN_COOKIE, providerSignOutUrl } from '../auth/oidc';
import { safeReturnPath } from '../auth/return-path';
import { clientAddress } from '../auth/client-address';
import { checkSignIn } from '../auth/sign-in';
import { authConfig } from '../config';
import { SIGN_IN_PATH } from '../paths';
import { getAccountStore } from '../services';
import { failure } from '../commands/result';

export interface SignInState {
  /** What the person typed, kept when the server refuses it (never the password). */
  name: string;
  error: string | null;
}

const signInSchema = z.object({
  name: z.string().trim().min(1, 'Enter your account name.').max(64, 'Account names are at most 64 characters.'),
  password: z.string().min(1, 'Enter your password.').max(1024, 'Passwords are at most 1024 characters.'),
});

export async function signIn(_previous: SignInState, form: FormData): Promise<SignInState> {
  const returnTo = safeReturnPath(form.get('next'));
  const nameField = form.get('name');
  const typedName = (typeof nameField === 'string' ? nameField : '').slice(0, 64);
  const config = authConfig();
  if (config.mode === 'local') redirect(returnTo);

  const parsed = signInSchema.safeParse({ name: form.get('name'), password: form.get('password') });
  if (!parsed.success) return { name: typedName, error: parsed.error.issues[0]?.message ?? 'Enter your name and password.' };
  const { name, password } = parsed.data;

  let secret: string;
  let expireTime: number;
  try {
    const store = await getAccountStore();
    const check = await checkSignIn(store, name, password, clientAddress(await headers(), config.trustedProxies));
    if (!check.ok) {
      if (check.reason === 'wrong') return { name, error: 'Wrong account name or password, or the account is disabled.' };
      return { name, error: `Too many failed attempts: try again in ${Math.ceil(check.retryAfterMs / 1000)} s.` };
    }
    const { account } = check;
    ({ secret, expireTime } = await store.startSession(account.id, config.sessionLifetimeSeconds));
  } catch (error) {
    return { name, error: failure(error).message };
  }
  (await cookies()).set(SESSION_COOKIE, secret, {
    httpOnly: true,
    secure: cookieIsSecure(await headers()),
    sameSite: 'lax',
    path: '/',
    expires: new Date(expireTime * 1000),
  });
  redirect(returnTo);
}

export async function signOut(): Promise<void> {
  const cookieStore = await cookies();
  const secret = cookieStore.get(SESSION_COOKIE)?.value;
  if (secret) {
    try {
      await (await getAccountStore()).endSession(secret);
    } catch (error) {
      // The cookie goes either way; a session row left behind expires on its own.
      console.error('Could not end the sign-in session:', error);
    }
  }
  cookieStore.delete(SESSION_COOKIE);
  // A single sign-on session ends at the provider too, when it offers that; else the person could sign straight back in.
  const idToken = cookieStore.get(ID_TOKEN_COOKIE)?.value;
  cookieStore.delete(ID_TOKEN_COOKIE);
  const atProvider = await providerSignOutUrl(authConfig(), idToken, await headers());
  redirect(atProvider ?? SIGN_IN_PATH);
}
