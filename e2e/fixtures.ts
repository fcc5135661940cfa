// Test fixtures: a session service on the same database as the server under
// test, and helpers that create uniquely named data and delete it afterwards,
// so tests can run in parallel and in any order.
//
// Relative imports only: Playwright's TypeScript loader does not apply the
// project's `@/` alias.
import { test as base, expect } from '@playwright/test';
import { openDatabase } from '../lib/db';
import { PrismaSessionService, type Session, type SessionRef, type SessionService } from '../lib/session-service';
import { makeSession, uniqueName, type SessionOverrides } from '../lib/testing/factories';
import { e2eDatabaseUrl } from './support/database';

interface WorkerFixtures {
  /** The service on the server's database, one connection per worker. */
  service: SessionService;
}

interface TestFixtures {
  /** Creates a session (unique app, user and id unless given) and deletes it when the test ends. */
  createSession: (overrides?: SessionOverrides) => Promise<Session>;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  service: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructured first argument.
    async ({}, use) => {
      const db = await openDatabase(e2eDatabaseUrl());
      try {
        await use(new PrismaSessionService(db.client, db.provider));
      } finally {
        await db.close();
      }
    },
    { scope: 'worker' },
  ],

  createSession: async ({ service }, use) => {
    const created: SessionRef[] = [];
    await use(async (overrides = {}) => {
      const session = await makeSession(service, { appName: uniqueName('e2e-app'), ...overrides });
      created.push({ appName: session.appName, userId: session.userId, sessionId: session.id });
      return session;
    });
    for (const ref of created) await service.deleteSession(ref);
  },
});

export { expect, uniqueName };
