import type { AccountStore } from '../auth/store';
import type { SessionService } from '../session-service/service';
import { getAccountStore, getSessionService } from './service';

/*
 * The one seam between the API route handlers and the process-wide
 * connection: handlers ask for `requestSessionService()` and
 * `requestAccountStore()`, which are the DATABASE_URL ones unless a test has
 * installed its own for a database it created. Only tests call the setters.
 */

let serviceOverride: SessionService | null = null;
let accountsOverride: AccountStore | null = null;

export function setSessionServiceForTests(service: SessionService | null): void {
  serviceOverride = service;
}

export function setAccountStoreForTests(accounts: AccountStore | null): void {
  accountsOverride = accounts;
}

export function requestSessionService(): Promise<SessionService> {
  return serviceOverride ? Promise.resolve(serviceOverride) : getSessionService();
}

export function requestAccountStore(): Promise<AccountStore> {
  return accountsOverride ? Promise.resolve(accountsOverride) : getAccountStore();
}
