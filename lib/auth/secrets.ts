import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/*
 * Passwords: scrypt (memory-hard, in node:crypto) with a random salt, stored
 * as `scrypt$N$r$p$salt$hash` so the cost can be raised later without
 * breaking existing hashes. Session cookies and API tokens are random
 * 256-bit secrets, stored only as their SHA-256: a leaked database does not
 * let anyone sign in.
 */

const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 };

function scryptAsync(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const maxmem = (N: number, r: number) => 256 * N * r;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p, keyLength } = SCRYPT;
  const key = await scryptAsync(password, salt, keyLength, { N, r, p, maxmem: maxmem(N, r) });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const [N, R, P] = [Number(n), Number(r), Number(p)];
  const key = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, { N, r: R, p: P, maxmem: maxmem(N, R) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash with the current parameters, compared against when the account does not exist, so timing does not tell. */
let decoy: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('base64url'));
  return decoy;
}

export type SecretKind = 'session' | 'token';
const PREFIX: Record<SecretKind, string> = { session: 'shs_', token: 'sht_' };

/** A new random secret; the prefix tells a token from a cookie at a glance (and to secret scanners). */
export function newSecret(kind: SecretKind): string {
  return PREFIX[kind] + randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function looksLikeSecret(kind: SecretKind, value: string): boolean {
  return value.startsWith(PREFIX[kind]) && /^[A-Za-z0-9_-]{40,60}$/.test(value.slice(PREFIX[kind].length));
}
