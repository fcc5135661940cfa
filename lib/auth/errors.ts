import type { Role } from './roles';

export type AuthErrorCode = 'UNAUTHENTICATED' | 'FORBIDDEN' | 'READ_ONLY';

/** Who is asking is unknown (401) or may not do this (403). */
export class AuthError extends Error {
  constructor(
    readonly code: AuthErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

export const unauthenticated = () =>
  new AuthError('UNAUTHENTICATED', 'Sign-in required: send a session cookie or an API token (Authorization: Bearer <token>).');

export const forbidden = (required: Role, what = 'this') => new AuthError('FORBIDDEN', `Forbidden: ${what} needs the ${required} role.`);

export const readOnlyRefusal = () =>
  new AuthError('READ_ONLY', 'This console is read-only (STATEHOUSE_READ_ONLY): it takes no writes, whoever asks.');

export const testNamespacesOff = () =>
  new AuthError(
    'FORBIDDEN',
    'Test namespaces are switched off on this deployment (STATEHOUSE_NO_TEST_NAMESPACES): no test kit may mark or clear data here.',
  );

/** What a write with app: keys is refused as, at every door. */
export const APP_KEYS_WRITE = 'changing app: keys (app state)';

export function isAuthError(error: unknown): error is AuthError {
  return error instanceof AuthError;
}
