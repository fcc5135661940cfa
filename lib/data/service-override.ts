import type { SessionService } from '../session-service/service';
import { getSessionService } from './service';

/*
 * The one seam between the API route handlers and the process-wide service:
 * handlers ask for `requestSessionService()`, which is `getSessionService()`
 * (DATABASE_URL) unless a test has installed a service for a database it
 * created. Only tests call `setSessionServiceForTests`.
 */

let override: SessionService | null = null;

export function setSessionServiceForTests(service: SessionService | null): void {
  override = service;
}

export function requestSessionService(): Promise<SessionService> {
  return override ? Promise.resolve(override) : getSessionService();
}
