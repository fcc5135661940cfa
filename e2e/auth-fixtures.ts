// Accounts and API tokens for the protected-mode server (playwright.config.ts
// starts it beside the local one, on the same database), created per test
// and deleted afterwards.
import type { Page } from '@playwright/test';
import { openServices } from '../lib/services';
import type { Role } from '../lib/auth/roles';
import type { AccountStore } from '../lib/auth/store';
import { test as base, expect, uniqueName } from './fixtures';
import { e2eDatabaseUrl } from './support/database';

export const PASSWORD = 'e2e password, long enough';

export interface TestAccount {
  name: string;
  role: Role;
  /** An API token of this account. */
  token: string;
}

interface AuthWorkerFixtures {
  accounts: AccountStore;
}

interface AuthTestFixtures {
  /** Base URL of the protected-mode server. */
  protectedUrl: string;
  createAccount: (role: Role) => Promise<TestAccount>;
  /** A new account of `role`, signed in through the protected server's form on `page`, which ends at `target` (a path). */
  signInAs: (role: Role, target: string) => Promise<TestAccount>;
}

export const test = base.extend<AuthTestFixtures, AuthWorkerFixtures>({
  accounts: [
    async ({}, use) => {
      const services = await openServices(e2eDatabaseUrl(), { migrate: false });
      try {
        await use(services.accounts);
      } finally {
        await services.close();
      }
    },
    { scope: 'worker' },
  ],

  protectedUrl: async ({}, use) => {
    const url = process.env.E2E_PROTECTED_URL;
    if (!url) throw new Error('E2E_PROTECTED_URL is not set: run the end-to-end tests with `npx playwright test`.');
    await use(url);
  },

  createAccount: async ({ accounts }, use) => {
    const created: string[] = [];
    await use(async (role) => {
      const name = uniqueName(`e2e-${role}`)
        .replace(/[^A-Za-z0-9._@-]/g, '-')
        .slice(0, 64);
      await accounts.createAccount({ name, password: PASSWORD, role });
      created.push(name);
      const { secret } = await accounts.createToken(name, 'e2e');
      return { name, role, token: secret };
    });
    for (const name of created) await accounts.deleteAccount(name);
  },

  signInAs: async ({ page, protectedUrl, createAccount }, use) => {
    await use(async (role, target) => {
      const account = await createAccount(role);
      await signIn(page, protectedUrl, account.name, target);
      return account;
    });
  },
});

/** Signs in on the protected server through its form and lands on `target` (a path). */
export async function signIn(page: Page, protectedUrl: string, name: string, target: string): Promise<void> {
  await page.goto(`${protectedUrl}/sign-in?next=${encodeURIComponent(target)}`);
  await page.getByLabel('Account name').fill(name);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(protectedUrl + target);
}

export { expect, uniqueName };
