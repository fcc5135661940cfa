'use server';

import { revalidatePath } from 'next/cache';
import type { Principal } from '../auth/principal';
import type { Account, ApiTokenInfo } from '../auth/store';
import {
  createAccountCommand,
  createTokenCommand,
  revokeTokenCommand,
  setPasswordCommand,
  updateAccountCommand,
} from '../commands/accounts';
import { getAccountStore } from '../services';
import { ACCOUNTS_PATH } from '../paths';
import { principalFor } from './authorize';
import { failure, type ActionResult } from '../commands/result';

/** Runs an admin-only command and refreshes the accounts page when it succeeded. */
async function asAdmin<T>(command: (by: Principal) => Promise<ActionResult<T>>): Promise<ActionResult<T>> {
  let result: ActionResult<T>;
  try {
    const admin = await principalFor('admin');
    if (!admin.ok) return admin;
    result = await command(admin.principal);
  } catch (error) {
    return failure(error);
  }
  if (result.ok) revalidatePath(ACCOUNTS_PATH);
  return result;
}

export async function createAccount(input: unknown): Promise<ActionResult<Account>> {
  return asAdmin(async () => createAccountCommand(await getAccountStore(), input));
}

export async function updateAccount(input: unknown): Promise<ActionResult<Account>> {
  return asAdmin(async (by) => updateAccountCommand(await getAccountStore(), by, input));
}

export async function setAccountPassword(input: unknown): Promise<ActionResult<null>> {
  return asAdmin(async () => setPasswordCommand(await getAccountStore(), input));
}

/** The secret is in this answer only; the page shows it once. */
export async function createApiToken(input: unknown): Promise<ActionResult<{ secret: string; token: ApiTokenInfo }>> {
  return asAdmin(async () => createTokenCommand(await getAccountStore(), input));
}

export async function revokeApiToken(input: unknown): Promise<ActionResult<ApiTokenInfo>> {
  return asAdmin(async () => revokeTokenCommand(await getAccountStore(), input));
}
