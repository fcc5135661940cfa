'use server';

import type { z } from 'zod';
import type { Principal } from '../auth/principal';
import type { AccountStore } from '../auth/store';
import {
  createAccountCommand,
  createAccountInput,
  createTokenCommand,
  createTokenInput,
  revokeTokenCommand,
  revokeTokenInput,
  setPasswordCommand,
  setPasswordInput,
  updateAccountCommand,
  updateAccountInput,
} from '../commands/accounts';
import type { ActionResult } from '../commands/result';
import { ACCOUNTS_PATH } from '../paths';
import { getAccountStore } from '../services';
import { defineAction, type ActionSpec } from './define';

/** An account write: an admin's, on the account store, shown on the accounts page. */
function accountWrite<S extends z.ZodType, T>(
  name: string,
  input: S,
  command: (store: AccountStore, input: z.output<S>, admin: Principal) => Promise<ActionResult<T>>,
): ActionSpec<S, T> {
  return {
    name,
    role: 'admin',
    input,
    run: async (input, admin) => command(await getAccountStore(), input, admin),
    revalidate: (_input, result) => result.ok && [ACCOUNTS_PATH],
  };
}

export const createAccount = defineAction(accountWrite('createAccount', createAccountInput, createAccountCommand));

export const updateAccount = defineAction(
  accountWrite('updateAccount', updateAccountInput, (store, input, admin) => updateAccountCommand(store, admin, input)),
);

export const setAccountPassword = defineAction(accountWrite('setAccountPassword', setPasswordInput, setPasswordCommand));

/** The secret is in this answer only; the page shows it once. */
export const createApiToken = defineAction(accountWrite('createApiToken', createTokenInput, createTokenCommand));

export const revokeApiToken = defineAction(accountWrite('revokeApiToken', revokeTokenInput, revokeTokenCommand));
