'use server';

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
import { defineAction, type Revalidation } from './define';

/** Every account write is an admin's, and shows on the accounts page. */
const onAccountsPage = (_input: unknown, result: ActionResult<unknown>): Revalidation | false => result.ok && [ACCOUNTS_PATH];

export const createAccount = defineAction({
  name: 'createAccount',
  role: 'admin',
  input: createAccountInput,
  run: async (input) => createAccountCommand(await getAccountStore(), input),
  revalidate: onAccountsPage,
});

export const updateAccount = defineAction({
  name: 'updateAccount',
  role: 'admin',
  input: updateAccountInput,
  run: async (input, admin) => updateAccountCommand(await getAccountStore(), admin, input),
  revalidate: onAccountsPage,
});

export const setAccountPassword = defineAction({
  name: 'setAccountPassword',
  role: 'admin',
  input: setPasswordInput,
  run: async (input) => setPasswordCommand(await getAccountStore(), input),
  revalidate: onAccountsPage,
});

/** The secret is in this answer only; the page shows it once. */
export const createApiToken = defineAction({
  name: 'createApiToken',
  role: 'admin',
  input: createTokenInput,
  run: async (input) => createTokenCommand(await getAccountStore(), input),
  revalidate: onAccountsPage,
});

export const revokeApiToken = defineAction({
  name: 'revokeApiToken',
  role: 'admin',
  input: revokeTokenInput,
  run: async (input) => revokeTokenCommand(await getAccountStore(), input),
  revalidate: onAccountsPage,
});
